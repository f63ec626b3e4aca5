"""The statistics of `reprolint variance` on synthetic numbers, against values worked out
by hand (and, where scipy is installed, against scipy)."""

from __future__ import annotations

import math
import sys

import pytest

from reprolint.harness import _stats
from reprolint.harness._stats import chi2_ppf, churn, cohens_d, group_tests, summarize


def test_summary_of_one_to_five() -> None:
    s = summarize([3, 1, 5, 2, 4])
    assert (s.n, s.min, s.max, s.range, s.mean) == (5, 1.0, 5.0, 4.0, 3.0)
    assert s.std == pytest.approx(math.sqrt(2.5))  # Σ(x - 3)² = 10, / (n - 1)
    # sqrt(4 · 2.5 / χ²(0.95; 4)) and sqrt(4 · 2.5 / χ²(0.05; 4)), χ² from the tables:
    # 9.487729 and 0.710723.
    lo, hi = s.std_ci
    assert lo == pytest.approx(math.sqrt(10 / 9.487729), rel=1e-6)
    assert hi == pytest.approx(math.sqrt(10 / 0.710723), rel=1e-6)
    assert s.range_pct == pytest.approx(400.0)


def test_equal_values_have_zero_spread_exactly() -> None:
    s = summarize([0.1 + 0.2] * 4)
    assert (s.range, s.std, s.std_ci) == (0.0, 0.0, (0.0, 0.0))


def test_one_value_has_no_standard_deviation() -> None:
    s = summarize([2.0])
    assert (s.n, s.range, s.std, s.std_ci) == (1, 0.0, None, None)
    assert summarize([]) is None


@pytest.mark.parametrize(
    "q, df, expected",
    [(0.05, 1, 0.00393214), (0.95, 1, 3.841459), (0.05, 4, 0.710723), (0.95, 4, 9.487729),
     (0.05, 9, 3.325113), (0.95, 9, 16.918978), (0.95, 30, 43.772972)],
)
def test_chi_square_quantiles_match_the_tables(q: float, df: int, expected: float) -> None:
    assert chi2_ppf(q, df) == pytest.approx(expected, rel=1e-6)


def test_chi_square_quantiles_match_scipy() -> None:
    stats = pytest.importorskip("scipy.stats")
    for df in (1, 2, 3, 7, 15, 99):
        for q in (0.05, 0.5, 0.95):
            assert chi2_ppf(q, df) == pytest.approx(stats.chi2.ppf(q, df), rel=1e-9)


def test_cohens_d() -> None:
    # means 2 and 5, both standard deviations 1, so the pooled one is 1
    assert cohens_d([1, 2, 3], [4, 5, 6]) == pytest.approx(-3.0)
    # means 2 and 3; pooled sd = sqrt((2 + 8) / 4)
    assert cohens_d([1, 2, 3], [1, 3, 5]) == pytest.approx(-1 / math.sqrt(2.5))
    assert cohens_d([1, 1], [1, 1]) is None
    assert cohens_d([2, 2], [1, 1]) == math.inf
    assert cohens_d([1], [1, 2]) is None


def test_churn_of_three_runs() -> None:
    runs = [[0, 1, 2, 3], [0, 1, 2, 0], [1, 1, 2, 3]]
    c = churn(runs, lambda a, b: a == b)
    # pairs: (1,2) differ on sample 3, (1,3) on sample 0, (2,3) on samples 0 and 3
    assert (c.samples, c.pairs) == (4, 3)
    assert c.mean == pytest.approx((0.25 + 0.25 + 0.5) / 3)
    assert c.max == 0.5
    assert c.unstable == 0.5  # samples 0 and 3
    # a sample missing from a shorter run counts as changed
    assert churn([[1, 2], [1]], lambda a, b: a == b).max == 0.5
    assert churn([[1, 2]], lambda a, b: a == b) is None


def test_levene_and_mann_whitney_by_hand() -> None:
    pytest.importorskip("scipy")
    # Levene (median-centred): |a - 2| = 1,0,1 and |b - 3| = 2,0,2; group means 2/3 and
    # 4/3, grand mean 1; W = (6-2)/(2-1) · (3/9 + 3/9) / (6/9 + 24/9) = 0.8
    t = group_tests([1, 2, 3], [1, 3, 5])
    assert t.levene_w == pytest.approx(0.8)
    # Mann-Whitney: every value of a below every value of b: U = 0, exact p = 2/C(6,3) = 0.1
    t = group_tests([1, 2, 3], [4, 5, 6])
    assert t.mann_whitney_u == 0
    assert t.mann_whitney_p == pytest.approx(0.1)
    assert t.cohens_d == pytest.approx(-3.0)


def test_constant_groups_leave_levene_undefined() -> None:
    pytest.importorskip("scipy")
    t = group_tests([1.0, 1.0, 1.0], [1.0, 1.0, 1.0])
    assert (t.levene_w, t.levene_p, t.cohens_d) == (None, None, None)
    assert t.mann_whitney_p == 1.0


def test_missing_scipy_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "scipy", None)  # `import scipy` now raises ImportError
    with pytest.raises(_stats.StatsUnavailable) as info:
        group_tests([1, 2, 3], [4, 5, 6])
    assert str(info.value) == (
        "Levene's test and the Mann-Whitney U test need scipy, which is not installed: "
        "pip install 'reprolint[stats]'"
    )
