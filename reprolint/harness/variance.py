"""`reprolint variance`: how much identical training runs differ (Pham et al., ASE 2020).

The command runs N times with `install()` injected, as in `verify --replay` but with a
chosen seed: a different seed per run (`seeds`: algorithmic variance: initialisation,
shuffling, dropout, augmentation), the same seed in every run (`fixed`: what is left is
implementation-level variance), or both groups. `PYTHONHASHSEED` follows the seed. The
determinism flags stay off unless asked for, because measuring the variance they
remove is the point.

From each run's trace it collects the loss per optimizer step, the metrics logged with
`reprolint.runtime.metric()` (overall, per class, per sample) and the wall time, then
summarises their spread per group. `variance()` returns data and never prints.
"""

from __future__ import annotations

import hmac
import json
import math
import os
import shlex
from dataclasses import asdict, dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from reprolint.harness import _stats
from reprolint.harness.backends import ExecutionOptions, nodeinfo
from reprolint.harness._stats import Churn, GroupTests, Summary
from reprolint.harness.compare import same_float, same_value
from reprolint.harness.traces import LiveTrace, ProcessTrace, load_run
from reprolint.harness import process as _process
from reprolint.harness.process import RUNS_DIR, new_run_root
from reprolint.cache import sign
from reprolint.harness.verify import child_env, run_once
from reprolint.runtime import environment as renv

MODES = ("seeds", "fixed", "both")
SPEC_FILE = "variance.json"  # what was asked: marks a variance session, matched by --resume
REPORT_FILE = "report.json"
RUN_FILE = "run.json"  # a finished run's values: what --resume keeps
FINAL_LOSS = "final loss"
WALL_TIME = "training time (s)"
_HASH_SEED_MOD = 2**32  # PYTHONHASHSEED takes 0..4294967295


@dataclass
class RunRecord:
    """One run: how it ended and the raw values it produced."""

    group: str  # "seeds" | "fixed"
    index: int  # 1..N within its group
    seed: int
    run_dir: str
    returncode: Optional[int] = None
    seconds: float = 0.0
    failure: str = ""  # empty when the run succeeded
    stderr_tail: str = ""
    resumed: bool = False  # kept from an earlier session (--resume)
    process: Optional[str] = None  # the traced process the values come from
    losses: List[Optional[float]] = field(default_factory=list)  # per optimizer step
    metrics: Dict[str, float] = field(default_factory=dict)
    per_class: Dict[str, Dict[str, float]] = field(default_factory=dict)
    predictions: Dict[str, List[Any]] = field(default_factory=dict)
    warnings: List[str] = field(default_factory=list)  # from the runtime, in any process
    # The program's own seeding calls after install(): [library, api, value, site].
    seedings: List[List[Any]] = field(default_factory=list)
    node: Optional[Dict[str, Any]] = None  # where it ran (backends.nodeinfo.describe)
    live_steps: int = 0  # while it runs (progress line): optimizer steps so far
    live_loss: Optional[float] = None  # and the last loss traced

    @property
    def ok(self) -> bool:
        return not self.failure

    @property
    def final_loss(self) -> Optional[float]:
        for loss in reversed(self.losses):
            if loss is not None:
                return loss
        return None

    def to_dict(self) -> Dict[str, Any]:
        data = asdict(self)
        data["ok"] = self.ok
        data["final_loss"] = self.final_loss
        return data

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "RunRecord":
        names = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass
class ValueStats:
    """The spread of one per-run value (final loss, a metric, the wall time)."""

    name: str
    summary: Summary
    values: List[float]  # one per run that has it, in run order
    missing: int = 0  # successful runs that did not log it


@dataclass
class ClassStats:
    """A per-class metric: the largest difference of each class over runs."""

    name: str
    ranges: Dict[str, float]
    largest: float
    largest_class: str


@dataclass
class ChurnStats:
    name: str
    churn: Churn


@dataclass
class LossCurveStats:
    """The loss per optimizer step across runs."""

    steps: int  # the longest run's
    identical: bool
    first_differing_step: Optional[int] = None
    max_spread: float = 0.0  # the largest max - min over runs at one step
    max_spread_step: Optional[int] = None


@dataclass
class GroupStats:
    """Pham et al.'s measures for one group of runs."""

    group: str
    seeds: List[int]
    runs: int  # successful runs
    failed: int
    values: List[ValueStats] = field(default_factory=list)
    per_class: List[ClassStats] = field(default_factory=list)
    churn: List[ChurnStats] = field(default_factory=list)
    loss_curve: Optional[LossCurveStats] = None

    def value(self, name: str) -> Optional[ValueStats]:
        return next((v for v in self.values if v.name == name), None)

    @property
    def evidence(self) -> bool:
        """Something besides the wall time was logged (a loss, a metric)."""
        return (
            any(v.name != WALL_TIME for v in self.values)
            or bool(self.per_class or self.churn)
            or self.loss_curve is not None
        )

    @property
    def no_variance(self) -> bool:
        """Every value, per-class value, prediction and loss equal in all runs (time aside)."""
        return (
            self.runs >= 2
            and self.evidence
            and all(v.summary.range == 0 and not v.missing for v in self.values if v.name != WALL_TIME)
            and all(c.largest == 0 for c in self.per_class)
            and all(c.churn.max == 0 for c in self.churn)
            and (self.loss_curve is None or self.loss_curve.identical)
        )


@dataclass
class Comparison:
    """Seeds group against fixed group, for one value."""

    name: str
    tests: GroupTests


@dataclass
class VarianceResult:
    command: List[str]
    mode: str
    seed: int
    deterministic: bool
    run_root: str
    headline: str  # the value the headline and the plot are about
    runs: List[RunRecord] = field(default_factory=list)
    groups: List[GroupStats] = field(default_factory=list)
    comparisons: List[Comparison] = field(default_factory=list)
    tests_unavailable: Optional[str] = None  # why Levene / Mann-Whitney are missing
    planned: int = 0
    verdict: str = "measured"  # measured | failed | interrupted
    warnings: List[str] = field(default_factory=list)
    plot: Optional[str] = None
    seed_arg: Optional[str] = None  # "--seed={seed}": the seed passed through the program's option
    seed_env: Optional[str] = None  # or through this environment variable
    # "the program seeds torch itself with 1337 at train.py:106: ..." (seeds group only)
    self_seeded: List[str] = field(default_factory=list)
    execution: Optional[Dict[str, Any]] = None  # backends.Execution: backend, jobs, overlap, nodes
    node_note: Optional[str] = None  # fixed seed: whether the differences follow the node

    @property
    def exit_code(self) -> int:
        return 0 if self.verdict == "measured" else 2

    def group(self, name: str) -> Optional[GroupStats]:
        return next((g for g in self.groups if g.group == name), None)

    def to_dict(self) -> Dict[str, Any]:
        data = asdict(self)
        data["runs"] = [r.to_dict() for r in self.runs]
        data["exit_code"] = self.exit_code
        for group, raw in zip(self.groups, data["groups"]):
            raw["no_variance"] = group.no_variance
            for value, raw_value in zip(group.values, raw["values"]):
                raw_value["summary"]["range_pct"] = value.summary.range_pct
        return data


# -- planning and running ---------------------------------------------------------------

PlannedRun = Tuple[str, int, int]  # (group, index, seed)


def plan(mode: str, runs: int, seed: int) -> List[PlannedRun]:
    """Which runs to make. `seeds`: seed S+k for run k; `fixed`: seed S in every run.

    With `both`, the groups alternate, so that a machine getting slower or faster
    during the session weighs on both groups alike.
    """
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; expected one of {', '.join(MODES)}")
    seeds = [("seeds", k, seed + k) for k in range(1, runs + 1)]
    fixed = [("fixed", k, seed) for k in range(1, runs + 1)]
    if mode == "seeds":
        return seeds
    if mode == "fixed":
        return fixed
    return list(chain.from_iterable(zip(seeds, fixed)))


def run_env(run_dir: Path, seed: int, deterministic: bool, seed_env: Optional[str] = None) -> Dict[str, str]:
    """verify's child environment (tracing, install() in record mode) plus the seed,
    also in `seed_env` when the program reads its seed from there."""
    env = child_env(
        run_dir, replay=True, first=True, record=run_dir / "record.json",
        hash_seed=str(seed % _HASH_SEED_MOD),
    )
    env[renv.SEED] = str(seed)
    env[renv.DETERMINISTIC] = "1" if deterministic else "0"
    if seed_env:
        env[seed_env] = str(seed)
    return env


def run_command(command: Sequence[str], seed: int, seed_arg: Optional[str] = None) -> List[str]:
    """The command of one run: with `seed_arg` (`"--seed={seed}"`, `"--seed {seed}"`)
    appended, its `{seed}` replaced by the run's seed."""
    if not seed_arg:
        return list(command)
    return [*command, *(part.replace("{seed}", str(seed)) for part in shlex.split(seed_arg))]


def self_seeding(runs: Sequence[RunRecord]) -> List[str]:
    """Libraries the program reseeds with the same constant in every run although the
    runs had different seeds: the varied seeds were overwritten."""
    ok = [r for r in runs if r.ok]
    if len(ok) < 2 or len({r.seed for r in ok}) < 2:
        return []
    # The first seeding of each library in each run, as (value, site).
    firsts = []
    for run in ok:
        first: Dict[str, Tuple[Any, Any]] = {}
        for library, _api, value, site in run.seedings:
            first.setdefault(library, (value, site))
        firsts.append(first)
    by_value: Dict[Any, List[Tuple[str, Any]]] = {}
    for library in firsts[0]:
        values = {repr(f.get(library, (None, None))[0]) for f in firsts}
        if len(values) == 1:
            value, site = firsts[0][library]
            by_value.setdefault(value, []).append((library, site))
    messages = []
    for value, found in by_value.items():
        libraries = _join([_LIBRARY_NAMES.get(lib, lib) for lib, _ in found])
        sites = _join(list(dict.fromkeys(str(site) for _, site in found if site)))
        at = f" at {sites}" if sites else ""
        messages.append(f"the program seeds {libraries} itself with {value}{at}: the varied seeds had no effect")
    return messages


_LIBRARY_NAMES = {"random": "Python random", "numpy": "NumPy", "torch": "torch"}


def _join(items: List[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _spec(command: Sequence[str], mode: str, seed: int, deterministic: bool,
          seed_arg: Optional[str] = None, seed_env: Optional[str] = None) -> Dict[str, Any]:
    spec = {
        "kind": "variance",
        "command": list(command),
        "cwd": os.getcwd(),
        "mode": mode,
        "seed": seed,
        "deterministic": deterministic,
    }
    if seed_arg:
        spec["seed_arg"] = seed_arg
    if seed_env:
        spec["seed_env"] = seed_env
    return spec


def _mac_of(path: Path, data: bytes) -> str:
    real = os.fsencode(os.path.realpath(path))
    return sign(b"reprolint variance record", real, data)


def write_sealed(path: Path, text: str) -> None:
    """Write a record `--resume` will trust, with its HMAC (under the per-user secret,
    bound to the file's real path) in `<name>.mac` beside it."""
    data = text.encode("utf-8")
    path.write_bytes(data)
    path.with_name(path.name + ".mac").write_text(_mac_of(path, data) + "\n", encoding="ascii")


def read_sealed(path: Path) -> Optional[str]:
    """The text of a record written by :func:`write_sealed` for this user at this
    place, or None: missing, edited, planted, copied, or reached through a link."""
    if os.path.islink(path):
        return None
    try:
        data = path.read_bytes()
        mac = path.with_name(path.name + ".mac").read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not hmac.compare_digest(mac, _mac_of(path, data)):
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def find_resumable(spec: Dict[str, Any], base: Path = RUNS_DIR) -> Optional[Path]:
    """The newest session under `base` that ran the same command the same way.

    Only sessions reprolint made here: real folders whose spec verifies (a session
    planted in a repository or copied from elsewhere is never resumed)."""
    candidates = []
    for root in _process.sessions(base):
        text = read_sealed(root / SPEC_FILE)
        if text is None:
            continue
        try:
            saved = json.loads(text)
        except ValueError:
            continue
        if not isinstance(saved, dict):
            continue
        if {k: saved.get(k) for k in spec} == spec:
            candidates.append(root)
    # Session names start with a timestamp; the modification time breaks ties.
    return max(candidates, key=lambda p: (p.name[:15], p.stat().st_mtime), default=None)


def load_finished(run_dir: Path, session: Optional[Path] = None) -> Optional[RunRecord]:
    """A run kept from an earlier session, if it finished successfully and its record
    verifies (written by reprolint here, unchanged); a folder on the way from `session`
    that is a link keeps nothing."""
    if session is not None and _process.link_on_the_way(run_dir, session) is not None:
        return None
    text = read_sealed(run_dir / RUN_FILE)
    if text is None:
        return None
    try:
        record = RunRecord.from_dict(json.loads(text))
    except (ValueError, TypeError, AttributeError, KeyError):
        return None
    if not record.ok:
        return None
    record.resumed = True
    return record


ProgressFn = Callable[[str, RunRecord, int, int], None]  # (event, run, position, total)


def variance(
    command: Sequence[str],
    runs: int = 5,
    mode: str = "seeds",
    seed: int = 0,
    deterministic: bool = False,
    resume: bool = False,
    timeout: Optional[float] = None,
    headline: Optional[str] = None,
    progress: Optional[ProgressFn] = None,
    base_dir: Path = RUNS_DIR,
    seed_arg: Optional[str] = None,
    seed_env: Optional[str] = None,
    execution: Optional[ExecutionOptions] = None,
) -> VarianceResult:
    """Run `command` `runs` times per group and measure the spread of what it logs.

    With `resume`, the newest session of the same command, mode, seed and flags is
    continued: its successful runs are kept, the others are run again. A program that
    seeds itself takes the run's seed through `seed_arg` (`"--seed={seed}"`, appended to
    the command) or the environment variable `seed_env`.
    """
    if runs < 2:
        raise ValueError("variance needs at least 2 runs per group")
    spec = _spec(command, mode, seed, deterministic, seed_arg, seed_env)
    root = find_resumable(spec, base_dir) if resume else None
    warnings: List[str] = []
    if resume and root is None:
        warnings.append("nothing to resume: no earlier session of this command, mode and seed")
    if root is None:
        root = new_run_root(base_dir)
    write_sealed(root / SPEC_FILE, json.dumps({**spec, "runs": runs}, indent=2))
    planned = plan(mode, runs, seed)
    result = VarianceResult(
        list(command), mode, seed, deterministic, str(root), headline or "", planned=len(planned),
        warnings=warnings, seed_arg=seed_arg, seed_env=seed_env,
    )
    # One after another here, or through a backend (--jobs, --backend): same records.
    in_turn = list(enumerate(planned, start=1)) if execution is None or execution.sequential_here else []
    if not in_turn:
        from reprolint.harness.backends.variance_runs import run_all

        run_all(result, root, command, planned, resume, deterministic, timeout, progress, execution,
                seed_arg, seed_env)
    try:
        with _process.signals_interrupt():
            for position, (group, index, run_seed) in in_turn:
                run_dir = root / group / f"run-{index}"
                kept = load_finished(run_dir, root) if resume else None
                if kept is not None and kept.seed == run_seed:
                    result.runs.append(kept)
                    if progress:
                        progress("end", kept, position, len(planned))
                    continue
                record = _run(run_command(command, run_seed, seed_arg), group, index, run_seed, run_dir,
                              deterministic, timeout, progress, position, len(planned), seed_env)
                result.runs.append(record)
                if not record.ok and not any(r.ok for r in result.runs):
                    break  # the first run failed: the command is broken, not unlucky
    except KeyboardInterrupt as exc:
        record = getattr(exc, "record", None)
        if record is not None:
            result.runs.append(record)
        result.verdict = "interrupted"
    if result.verdict != "interrupted" and (
        len(result.runs) < len(planned) or not all(r.ok for r in result.runs)
    ):
        result.verdict = "failed"
    analyse(result)
    result.node_note = _node_note(result)
    save_report(result)
    return result


def _node_note(result: VarianceResult) -> Optional[str]:
    """Fixed seed: whether the runs that differ are those of another node or device."""
    runs = [r for r in result.runs if r.ok and r.group == "fixed"]
    return nodeinfo.follows_node([
        (f"run {r.index}", r.node, (r.losses, r.metrics, r.per_class, r.predictions)) for r in runs
    ])


def save_report(result: VarianceResult) -> None:
    """`report.json` beside the runs: the same as `--output-format json`."""
    path = Path(result.run_root) / REPORT_FILE
    path.write_text(json.dumps(result.to_dict(), indent=2, default=str), encoding="utf-8")


def _run(
    command: Sequence[str],
    group: str,
    index: int,
    seed: int,
    run_dir: Path,
    deterministic: bool,
    timeout: Optional[float],
    progress: Optional[ProgressFn],
    position: int,
    total: int,
    seed_env: Optional[str] = None,
) -> RunRecord:
    prepare_run_dir(run_dir, Path(run_dir).parents[1])
    record = RunRecord(group, index, seed, str(run_dir))
    if progress:
        progress("start", record, position, total)
    env = run_env(run_dir, seed, deterministic, seed_env)
    record.node = nodeinfo.describe(env)
    on_tick = None
    if progress:
        live = LiveTrace(run_dir)

        def on_tick(elapsed: float) -> None:
            record.seconds = elapsed
            record.live_steps, record.live_loss = live.poll()
            progress("tick", record, position, total)  # type: ignore[misc]

    try:
        outcome = run_once(command, index, run_dir, env, (), timeout, on_tick=on_tick)
    except KeyboardInterrupt as exc:
        outcome = getattr(exc, "outcome", None)
        record.failure = "interrupted"
        if outcome is not None:
            record.returncode, record.seconds = outcome.returncode, outcome.seconds
        exc.record = record  # type: ignore[attr-defined]
        save_run(record)
        raise
    record.returncode = outcome.returncode
    record.seconds = outcome.seconds
    record.failure = outcome.failure()
    record.stderr_tail = outcome.stderr_tail
    collect(record, load_run(run_dir))
    save_run(record)
    if progress:
        progress("end", record, position, total)
    return record


def prepare_run_dir(run_dir: Path, session: Path) -> None:
    """An empty folder for a run of `session`: an unfinished or failed run of an
    earlier session goes first, never through a link (RecordsUnavailable)."""
    _process.refuse_links(run_dir, session)
    if os.path.lexists(run_dir):
        _process.remove_tree(run_dir, session)
    run_dir.mkdir(parents=True)
    _process.refuse_links(run_dir, session)


def save_run(record: RunRecord) -> None:
    write_sealed(Path(record.run_dir) / RUN_FILE, json.dumps(record.to_dict(), indent=2, default=str))


# -- collecting one run's values from its trace ------------------------------------------


def is_prediction_name(name: str) -> bool:
    """Per-sample values are recognised by name (`predictions`, `preds`, `y_pred`); a list
    or dict of numbers under any other name is per class, and one of anything else is
    compared entry by entry like predictions."""
    return "pred" in name.lower()


def _number(value: Any) -> Optional[float]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _main_process(traces: Dict[str, ProcessTrace]) -> Optional[ProcessTrace]:
    """The process that trained: `main`, else the lowest rank (torchrun's main is the launcher)."""

    def order(name: str) -> Tuple[int, int]:
        if name == "main":
            return (0, 0)
        if name.startswith("rank") and name[4:].isdigit():
            return (1, int(name[4:]))
        return (2, 0)  # pid<N>: DataLoader workers and other children

    for name in sorted(traces, key=order):
        trace = traces[name]
        if order(name)[0] < 2 and (trace.steps or trace.metrics):
            return trace
    return None


def collect(record: RunRecord, traces: Dict[str, ProcessTrace]) -> None:
    """Fill `record` from a run's traces; a value logged several times counts last."""
    for process in traces.values():
        for message in process.warnings:
            if message not in record.warnings:
                record.warnings.append(message)
    for name in ("main", "rank0"):  # under torchrun, main is the launcher
        if name in traces and traces[name].seedings:
            record.seedings = [list(s) for s in traces[name].seedings]
            break
    trace = _main_process(traces)
    if trace is None:
        return
    record.process = trace.name
    record.losses = [s.loss for s in trace.steps]
    for name, value in trace.metrics:
        number = _number(value)
        if number is not None:
            record.metrics[name] = number
        elif isinstance(value, (list, dict)):
            items = list(value.items() if isinstance(value, dict) else enumerate(value))
            per_class = {str(k): _number(v) for k, v in items}
            numeric = bool(items) and all(v is not None for v in per_class.values())
            if numeric and not is_prediction_name(name):
                record.per_class[name] = per_class  # type: ignore[assignment]
            else:  # predictions, or values that are not numbers: compared one by one
                record.predictions[name] = [v for _, v in items]


# -- the statistics ------------------------------------------------------------------------


def _finite(values: Sequence[Optional[float]]) -> List[float]:
    return [v for v in values if v is not None and math.isfinite(v)]


def _value_stats(name: str, values: Sequence[Optional[float]]) -> Optional[ValueStats]:
    finite = _finite(values)
    summary = _stats.summarize(finite)
    if summary is None:
        return None
    return ValueStats(name, summary, finite, missing=len(values) - len(finite))


def _names(runs: Sequence[RunRecord], attribute: str) -> List[str]:
    """Names in the order they were first logged, over all runs."""
    return list(dict.fromkeys(n for r in runs for n in getattr(r, attribute)))


def loss_curve_stats(curves: Sequence[Sequence[Optional[float]]]) -> Optional[LossCurveStats]:
    steps = max((len(c) for c in curves), default=0)
    if steps == 0:
        return None
    result = LossCurveStats(steps, identical=True)
    for i in range(steps):
        column = [c[i] if i < len(c) else None for c in curves]
        if not all(same_float(column[0], x) for x in column[1:]):
            if result.identical:
                result.identical = False
                result.first_differing_step = i + 1
        finite = _finite(column)
        if finite and max(finite) - min(finite) > result.max_spread:
            result.max_spread = max(finite) - min(finite)
            result.max_spread_step = i + 1
    return result


def group_stats(group: str, runs: Sequence[RunRecord]) -> GroupStats:
    ok = [r for r in runs if r.ok]
    stats = GroupStats(group, [r.seed for r in runs], runs=len(ok), failed=len(runs) - len(ok))
    if not ok:
        return stats
    candidates: List[Tuple[str, List[Optional[float]]]] = []
    if any(r.losses for r in ok):
        candidates.append((FINAL_LOSS, [r.final_loss for r in ok]))
    for name in _names(ok, "metrics"):
        candidates.append((name, [r.metrics.get(name) for r in ok]))
    candidates.append((WALL_TIME, [r.seconds for r in ok]))
    for name, values in candidates:
        value = _value_stats(name, values)
        if value is not None:
            stats.values.append(value)
    for name in _names(ok, "per_class"):
        tables = [r.per_class[name] for r in ok if name in r.per_class]
        classes = list(dict.fromkeys(k for t in tables for k in t))
        ranges = {}
        for cls in classes:
            column = _finite([t.get(cls) for t in tables])
            ranges[cls] = max(column) - min(column) if column else 0.0
        largest_class = max(classes, key=lambda c: ranges[c])  # the first among equals
        stats.per_class.append(ClassStats(name, ranges, ranges[largest_class], largest_class))
    for name in _names(ok, "predictions"):
        churn = _stats.churn([r.predictions.get(name, []) for r in ok], same_value)
        if churn is not None:
            stats.churn.append(ChurnStats(name, churn))
    stats.loss_curve = loss_curve_stats([r.losses for r in ok if r.losses])
    return stats


def default_headline(runs: Sequence[RunRecord]) -> str:
    """The first overall metric logged (accuracy, typically), else the final loss."""
    ok = [r for r in runs if r.ok]
    metrics = _names(ok, "metrics")
    if metrics:
        return metrics[0]
    return FINAL_LOSS if any(r.losses for r in ok) else WALL_TIME


def analyse(result: VarianceResult) -> None:
    """Fill the groups and, for `both`, the seeds-vs-fixed comparisons."""
    groups = [g for g in ("seeds", "fixed") if any(r.group == g for r in result.runs)]
    result.groups = [group_stats(g, [r for r in result.runs if r.group == g]) for g in groups]
    known = [v.name for g in result.groups for v in g.values]
    if result.headline and result.headline not in known and result.runs:
        result.warnings.append(
            f"no value named {result.headline!r} was logged; known: {', '.join(dict.fromkeys(known)) or 'none'}"
        )
        result.headline = ""
    if not result.headline:
        result.headline = default_headline(result.runs)
    for run in result.runs:
        for message in run.warnings:
            if message not in result.warnings:
                result.warnings.append(message)
    result.self_seeded = self_seeding([r for r in result.runs if r.group == "seeds"])
    seeds, fixed = result.group("seeds"), result.group("fixed")
    if seeds is None or fixed is None:
        return
    pairs = []
    for value in seeds.values:
        other = fixed.value(value.name)
        if other is not None:
            pairs.append((value.name, value.values, other.values))
    try:
        result.comparisons = [Comparison(n, _stats.group_tests(a, b)) for n, a, b in pairs]
    except _stats.StatsUnavailable as exc:
        result.tests_unavailable = str(exc)
        result.comparisons = [
            Comparison(n, GroupTests(None, None, None, None, _stats.cohens_d(a, b)))
            for n, a, b in pairs
        ]
