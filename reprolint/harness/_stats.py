"""The statistics of `reprolint variance`, on plain lists of floats.

Pure functions, no NumPy: the spread of a handful of runs needs nothing more. The two
hypothesis tests (Levene, Mann-Whitney U) come from scipy when it is installed; their
p-values need distributions that are not worth re-implementing. Cohen's d and the
confidence interval of the standard deviation need no scipy.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Callable, Optional, Sequence, Tuple

CONFIDENCE = 0.90  # Pham et al. report 90% confidence intervals
SCIPY_MISSING = (
    "Levene's test and the Mann-Whitney U test need scipy, which is not installed: "
    "pip install 'reprolint[stats]'"
)


@dataclass
class Summary:
    """The spread of one value over runs (Pham et al.'s measures).

    `range` is the paper's "largest difference" (max - min); `std` is the sample
    standard deviation (n - 1) and `std_ci` its 90% confidence interval, from the
    chi-square distribution (exact for normally distributed values).
    """

    n: int
    min: float
    max: float
    range: float
    mean: float
    std: Optional[float]
    std_ci: Optional[Tuple[float, float]]

    @property
    def range_pct(self) -> Optional[float]:
        """The largest difference relative to the smallest value, in percent."""
        if self.min <= 0:
            return None
        return self.range / self.min * 100.0


def summarize(values: Sequence[float], confidence: float = CONFIDENCE) -> Optional[Summary]:
    """Min, max, range, mean, std and the std's confidence interval; None for no values."""
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        return None
    mean = math.fsum(xs) / n
    lo, hi = min(xs), max(xs)
    if n < 2:
        return Summary(n, lo, hi, hi - lo, mean, None, None)
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
    if lo == hi:  # exactly equal: no rounding noise in the std
        var = 0.0
    return Summary(n, lo, hi, hi - lo, mean, math.sqrt(var), std_interval(var, n, confidence))


def std_interval(var: float, n: int, confidence: float = CONFIDENCE) -> Tuple[float, float]:
    """Confidence interval of a standard deviation: sqrt((n-1) s² / χ²) at both tails."""
    alpha = 1.0 - confidence
    df = n - 1
    upper_q = chi2_ppf(1.0 - alpha / 2, df)
    lower_q = chi2_ppf(alpha / 2, df)
    return math.sqrt(df * var / upper_q), math.sqrt(df * var / lower_q)


def cohens_d(a: Sequence[float], b: Sequence[float]) -> Optional[float]:
    """(mean a - mean b) / pooled standard deviation; None when it is undefined."""
    na, nb = len(a), len(b)
    if na < 2 or nb < 2:
        return None
    ma, mb = math.fsum(a) / na, math.fsum(b) / nb
    ssa = math.fsum((x - ma) ** 2 for x in a)
    ssb = math.fsum((x - mb) ** 2 for x in b)
    pooled = math.sqrt((ssa + ssb) / (na + nb - 2))
    if pooled == 0:
        return None if ma == mb else math.copysign(math.inf, ma - mb)
    return (ma - mb) / pooled


@dataclass
class Churn:
    """How many per-sample predictions change between runs.

    `mean` and `max` are over pairs of runs (the share of samples on which two runs
    disagree); `unstable` is the share of samples whose prediction is not the same in
    every run.
    """

    samples: int
    pairs: int
    mean: float
    max: float
    unstable: float


def churn(runs: Sequence[Sequence[Any]], same: Callable[[Any, Any], bool]) -> Optional[Churn]:
    """Prediction churn over runs; `same` decides when two predictions agree.

    A sample missing from a shorter run counts as changed.
    """
    if len(runs) < 2:
        return None
    samples = max(len(r) for r in runs)
    if samples == 0:
        return None

    def agree(a: Sequence[Any], b: Sequence[Any], i: int) -> bool:
        return i < len(a) and i < len(b) and same(a[i], b[i])

    shares = []
    for a, b in combinations(runs, 2):
        differ = sum(1 for i in range(samples) if not agree(a, b, i))
        shares.append(differ / samples)
    first = runs[0]
    unstable = sum(
        1 for i in range(samples) if not all(agree(first, other, i) for other in runs[1:])
    )
    return Churn(samples, len(shares), math.fsum(shares) / len(shares), max(shares), unstable / samples)


@dataclass
class GroupTests:
    """Seeds-varied runs against fixed-seed runs, for one value.

    Levene's test (centred on the median, i.e. Brown-Forsythe: robust for few runs)
    asks whether the variances differ; the Mann-Whitney U test whether one group tends
    to have larger values. p-values are None where a test is undefined (both groups
    constant).
    """

    levene_w: Optional[float]
    levene_p: Optional[float]
    mann_whitney_u: Optional[float]
    mann_whitney_p: Optional[float]
    cohens_d: Optional[float]


class StatsUnavailable(RuntimeError):
    """scipy is missing: the tests that need it cannot run."""


def _finite(value: Any) -> Optional[float]:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _scipy_stats() -> Any:
    try:
        from scipy import stats
    except ImportError as exc:
        raise StatsUnavailable(SCIPY_MISSING) from exc
    return stats


def group_tests(a: Sequence[float], b: Sequence[float]) -> GroupTests:
    """Levene and Mann-Whitney (scipy) plus Cohen's d; raises StatsUnavailable without scipy."""
    stats = _scipy_stats()
    d = cohens_d(a, b)
    if len(a) < 2 or len(b) < 2:
        return GroupTests(None, None, None, None, d)
    with warnings.catch_warnings():
        # Constant groups make scipy warn and return NaN: reported as "undefined".
        warnings.simplefilter("ignore")
        lev = stats.levene(list(a), list(b), center="median")
        mwu = stats.mannwhitneyu(list(a), list(b), alternative="two-sided")
    return GroupTests(
        _finite(lev.statistic), _finite(lev.pvalue), _finite(mwu.statistic), _finite(mwu.pvalue), d
    )


# -- the chi-square quantile, for the standard deviation's interval ----------------------

_EPS = 1e-15
_TINY = 1e-300


def _gamma_p(a: float, x: float) -> float:
    """The regularized lower incomplete gamma function P(a, x)."""
    if x <= 0:
        return 0.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # series
        term = total = 1.0 / a
        ap = a
        for _ in range(10000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * _EPS:
                break
        return total * math.exp(log_front)
    # continued fraction for Q = 1 - P (modified Lentz)
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = d if abs(d) > _TINY else _TINY
        c = b + an / c
        c = c if abs(c) > _TINY else _TINY
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < _EPS:
            break
    return 1.0 - math.exp(log_front) * h


def chi2_cdf(x: float, df: int) -> float:
    return _gamma_p(df / 2.0, x / 2.0)


def chi2_ppf(q: float, df: int) -> float:
    """The q-quantile of the chi-square distribution with `df` degrees of freedom."""
    if not 0 < q < 1 or df < 1:
        raise ValueError("chi2_ppf needs 0 < q < 1 and df >= 1")
    lo, hi = 0.0, max(1.0, float(df))
    while chi2_cdf(hi, df) < q:
        hi *= 2
    for _ in range(200):  # bisection: slow but exact to the last bits, and n is tiny
        mid = (lo + hi) / 2
        if chi2_cdf(mid, df) < q:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-14 * hi:
            break
    return (lo + hi) / 2

