"""`reprolint verify`: run a training command several times and compare the runs.

`verify()` returns data and never prints; progress goes through an optional callback.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from reprolint.harness import artifacts as _artifacts
from reprolint.harness import process as _process
from reprolint.harness.backends import ExecutionOptions, nodeinfo
from reprolint.harness.compare import ProcessComparison, compare_process
from reprolint.harness.output import OutputComparison, compare_outputs
from reprolint.harness.process import RUNS_DIR, new_run_root
from reprolint.harness.traces import LiveTrace, load_run
from reprolint.runtime import environment as renv

STDERR_TAIL_LINES = _process.STDERR_TAIL_LINES


@dataclass
class RunOutcome:
    """How one run of the command ended."""

    index: int
    run_dir: str
    returncode: Optional[int] = None
    seconds: float = 0.0
    timed_out: bool = False
    interrupted: bool = False
    stderr_tail: str = ""
    missing_artifacts: List[str] = field(default_factory=list)
    python_hash_seed: Optional[str] = None
    records_lost: bool = False  # the program deleted the run's records folder
    live_steps: int = 0  # while it runs: optimizer steps so far (main process)
    live_loss: Optional[float] = None  # and the last loss traced
    node: Optional[Dict[str, Any]] = None  # where it ran (backends.nodeinfo.describe)
    crashed: str = ""  # why the backend lost the run (a Ray worker died), in words

    @property
    def ok(self) -> bool:
        return (
            self.returncode == 0
            and not self.timed_out
            and not self.interrupted
            and not self.missing_artifacts
            and not self.records_lost
            and not self.crashed
        )

    def failure(self) -> str:
        """Why the run failed, in words (empty when it did not)."""
        if self.interrupted:
            return "interrupted"
        if self.crashed:
            return f"crashed: {self.crashed}"
        if self.timed_out:
            return f"timed out after {self.seconds:.1f} s"
        if self.returncode != 0:
            return f"exited with code {self.returncode} after {self.seconds:.1f} s"
        if self.records_lost:
            return (
                f"deleted reprolint's records folder ({self.run_dir}) while it ran, "
                "so there is nothing to compare"
            )
        if self.missing_artifacts:
            return "did not write " + ", ".join(self.missing_artifacts)
        return ""


@dataclass
class RunComparison:
    """Run 1 against run `other`."""

    other: int
    processes: List[ProcessComparison] = field(default_factory=list)
    artifacts: List[_artifacts.ArtifactComparison] = field(default_factory=list)
    unpaired: List[str] = field(default_factory=list)
    output: Optional[OutputComparison] = None
    output_is_criterion: bool = False

    @property
    def identical(self) -> bool:
        if self.output_is_criterion and (self.output is None or not self.output.equal):
            return False
        return (
            all(p.identical for p in self.processes)
            and all(a.equal for a in self.artifacts)
            and not self.unpaired
        )

    @property
    def evidence(self) -> int:
        return sum(p.evidence for p in self.processes) + len(self.artifacts)


@dataclass
class VerifyResult:
    """Everything `verify` found; `exit_code` is what the command line returns."""

    command: List[str]
    run_root: str
    replay: bool
    runs: List[RunOutcome]
    comparisons: List[RunComparison] = field(default_factory=list)
    verdict: str = "reproducible"  # reproducible | differs | failed | interrupted | inconclusive
    time_spread_pct: Optional[float] = None
    warnings: List[str] = field(default_factory=list)
    static_hints: List[str] = field(default_factory=list)  # "RPL101 train.py:14"
    execution: Optional[Dict[str, Any]] = None  # backends.Execution: backend, jobs, overlap, nodes
    node_note: Optional[str] = None  # whether the differences follow the node or device
    plot: Optional[str] = None  # --plot: the PNG written
    diagnosis: Optional[Dict[str, Any]] = None  # --diagnose: harness.diagnose.Diagnosis.to_dict()
    diagnosis_lines: List[str] = field(default_factory=list)  # and its text

    @property
    def exit_code(self) -> int:
        return {"reproducible": 0, "differs": 1}.get(self.verdict, 2)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["exit_code"] = self.exit_code
        for comparison, raw in zip(self.comparisons, data["comparisons"]):
            raw["identical"] = comparison.identical
            for process, raw_process in zip(comparison.processes, raw["processes"]):
                raw_process["identical"] = process.identical
        for run, raw in zip(self.runs, data["runs"]):
            raw["ok"] = run.ok
        return data


ProgressFn = Callable[[str, RunOutcome, int], None]  # (event, run, total runs)


def child_env(
    run_dir: Path,
    replay: bool,
    first: bool,
    record: Path,
    hash_seed: Optional[str],
    base: Optional[Dict[str, str]] = None,
    extra: Optional[Dict[str, str]] = None,
) -> Dict[str, str]:
    """The environment of one run: tracing always; record/replay with `--replay`;
    ``extra``: what a `--diagnose` control sets (the same in every run)."""
    env = _process.harness_env(base)
    env[renv.TRACE_DIR] = str(run_dir.resolve())
    env.update(extra or {})
    if replay:
        env[renv.INSTALL] = "1"
        env[renv.MODE] = "record" if first else "replay"
        env[renv.RECORD] = str(record.resolve())
        if hash_seed is not None:
            # Set before the interpreter starts: the only way str hashing is replayed.
            env["PYTHONHASHSEED"] = hash_seed
    return env


def _stat(path: Path) -> Optional[Tuple[int, int]]:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


_NAME_MAX = 180  # bytes of a record name kept readable; longer ones end in a digest (245 in all)


def artifact_record_name(artifact: str) -> str:
    """The file name an artifact's copy gets in a run's `artifacts/` folder: injective
    (two different `--artifact` values never share a record, so a file that differs
    every run is never compared with another one), never `.`/`..`, never holding `/`.

    Every byte outside ASCII letters, digits, `-`, `_` and `.` is percent-encoded (`%`
    too), and so is a name of dots only; a name over 180 bytes keeps its start and ends
    in `~` and a SHA-256 of the value (`~` never appears in an encoded name).
    """
    raw = artifact.encode("utf-8", "surrogateescape")
    name = "".join(
        chr(b) if chr(b).isascii() and (chr(b).isalnum() or chr(b) in "-_.") else f"%{b:02X}" for b in raw
    )
    if not name.strip("."):
        name = name.replace(".", "%2E")
    if len(name) > _NAME_MAX:
        name = name[:_NAME_MAX] + "~" + hashlib.sha256(raw).hexdigest()
    return name


def run_once(
    command: Sequence[str],
    index: int,
    run_dir: Path,
    env: Dict[str, str],
    artifacts: Sequence[str],
    timeout: Optional[float],
    on_tick: Optional[_process.TickFn] = None,
    show_output: bool = False,
) -> RunOutcome:
    """Run the command once; its output goes to stdout.txt / stderr.txt in `run_dir`.

    Its whole process group is stopped when it ends, whatever happens. Ctrl-C (or
    SIGTERM/SIGHUP under `process.signals_interrupt()`) stops the command and is
    re-raised with the outcome attached as `exc.outcome`.
    """
    outcome = RunOutcome(index, str(run_dir), python_hash_seed=env.get("PYTHONHASHSEED"))
    before = {a: _stat(Path(a)) for a in artifacts}
    try:
        finished = _process.run(
            command, run_dir / "stdout.txt", run_dir / "stderr.txt", env, timeout,
            on_tick=on_tick, show_output=show_output,
        )
    except KeyboardInterrupt as exc:
        partial = getattr(exc, "finished", None)
        outcome.interrupted = True
        if partial is not None:
            outcome.returncode, outcome.seconds = partial.returncode, partial.seconds
        exc.outcome = outcome  # type: ignore[attr-defined]
        raise
    outcome.returncode, outcome.seconds, outcome.timed_out = (
        finished.returncode, finished.seconds, finished.timed_out
    )
    if finished.start_error is not None:
        outcome.stderr_tail = finished.start_error
        return outcome
    if not run_dir.is_dir():
        # The program removed `.reprolint` (a `git clean -fdx`, a cleanup step): its
        # traces went with it. Recreate the folder so the session can still be saved.
        outcome.records_lost = True
        run_dir.mkdir(parents=True, exist_ok=True)
        return outcome
    if outcome.returncode != 0 or outcome.timed_out:
        outcome.stderr_tail = _process.tail(run_dir / "stderr.txt")
        return outcome
    copies = run_dir / "artifacts"
    for artifact in artifacts:
        path = Path(artifact)
        if not path.is_file() or _stat(path) == before[artifact]:
            outcome.missing_artifacts.append(artifact)
            continue
        copies.mkdir(exist_ok=True)
        shutil.copy2(path, copies / artifact_record_name(artifact))
    return outcome


def compare_runs(
    run_a: Path, run_b: Path, other: int, artifacts: Sequence[str]
) -> RunComparison:
    """Run 1's records against run `other`'s: every process's trace and every artifact."""
    traces_a, traces_b = load_run(run_a), load_run(run_b)
    result = RunComparison(other)
    for name in sorted(set(traces_a) | set(traces_b), key=_process_order):
        if name not in traces_a or name not in traces_b:
            # pid<N> processes have no stable name across runs: not comparable.
            if not name.startswith("pid"):
                result.unpaired.append(name)
            continue
        result.processes.append(compare_process(traces_a[name], traces_b[name]))
    for artifact in artifacts:
        name = artifact_record_name(artifact)
        result.artifacts.append(
            _artifacts.compare_artifact(
                artifact, run_a / "artifacts" / name, run_b / "artifacts" / name
            )
        )
    result.output = compare_outputs(run_a / "stdout.txt", run_b / "stdout.txt")
    # Without an optimizer step (an evaluation, a hand-written update, NumPy only) what
    # the program prints is evidence too, with timing-like values set aside; with
    # steps, the parameter digests decide and the output is only shown.
    result.output_is_criterion = not any(p.steps_a or p.steps_b for p in result.processes)
    return result


def _process_order(name: str) -> Tuple[int, int, str]:
    if name == "main":
        return (0, 0, name)
    if name.startswith("rank") and name[4:].isdigit():
        return (1, int(name[4:]), name)
    return (2, 0, name)


def time_spread(runs: Sequence[RunOutcome]) -> Optional[float]:
    """(slowest - fastest) / fastest, in percent."""
    times = [r.seconds for r in runs if r.ok]
    if len(times) < 2 or min(times) <= 0:
        return None
    return (max(times) - min(times)) / min(times) * 100.0


def verify(
    command: Sequence[str],
    runs: int = 2,
    replay: bool = False,
    artifacts: Sequence[str] = (),
    timeout: Optional[float] = None,
    progress: Optional[ProgressFn] = None,
    base_dir: Path = RUNS_DIR,
    show_output: bool = False,
    execution: Optional[ExecutionOptions] = None,
    extra_env: Optional[Dict[str, str]] = None,
) -> VerifyResult:
    """Run `command` `runs` times and compare every run with the first.

    By default the program is tested as written: only tracing is injected. With
    `replay`, run 1 records its randomness (and PYTHONHASHSEED) and later runs replay it.
    `progress` gets "start", "tick" (about twice a second, with `run.seconds`,
    `run.live_steps` and `run.live_loss` read from the growing trace) and "end".
    Raises `process.RecordsUnavailable` when the records folder cannot be written.
    With `execution` (`--jobs`, `--backend`), the runs go through a backend executor
    (`reprolint.harness.backends`); the verdict does not depend on it. `extra_env`:
    variables every run gets (a `--diagnose` control).
    """
    if runs < 2:
        raise ValueError("verify needs at least 2 runs")
    root = new_run_root(base_dir)
    result = VerifyResult(list(command), str(root), replay, [])
    record = root / "run-1" / "record.json"
    hash_seed: Optional[str] = None
    if replay:
        hash_seed = os.environ.get("PYTHONHASHSEED") or str(secrets.randbelow(2**32 - 1) + 1)
    (root / "command.json").write_text(
        json.dumps({"command": list(command), "replay": replay, "runs": runs, "cwd": os.getcwd()}, indent=2)
    )
    # One after another here, or through a backend (--jobs, --backend): same records.
    in_turn = range(1, runs + 1) if execution is None or execution.sequential_here else range(0)
    if not in_turn:
        from reprolint.harness.backends.verify_runs import run_all

        run_all(result, root, command, runs, replay, artifacts, timeout, progress, execution, record, hash_seed,
                extra_env=extra_env)
    try:
        with _process.signals_interrupt():
            for index in in_turn:
                run_dir = root / f"run-{index}"
                run_dir.mkdir(parents=True, exist_ok=True)
                if replay and index > 1:
                    hash_seed = recorded_hash_seed(record) or hash_seed
                env = child_env(run_dir, replay, index == 1, record, hash_seed, extra=extra_env)
                placeholder = RunOutcome(index, str(run_dir))
                on_tick = None
                if progress:
                    progress("start", placeholder, runs)
                    on_tick = _ticker(progress, placeholder, runs)
                outcome = run_once(command, index, run_dir, env, artifacts, timeout,
                                   on_tick=on_tick, show_output=show_output)
                outcome.node = nodeinfo.describe(env)
                result.runs.append(outcome)
                if progress:
                    progress("end", outcome, runs)
                if not outcome.ok:
                    result.verdict = "failed"
                    break
    except KeyboardInterrupt as exc:
        outcome = getattr(exc, "outcome", None)
        if outcome is not None:
            result.runs.append(outcome)
        result.verdict = "interrupted"
        if isinstance(exc, _process.Terminated):
            result.warnings.append(f"verify received {exc}: the runs were stopped")
    if result.verdict in ("failed", "interrupted"):
        _save(result, root)
        return result
    first = Path(result.runs[0].run_dir)
    for outcome in result.runs[1:]:
        result.comparisons.append(compare_runs(first, Path(outcome.run_dir), outcome.index, artifacts))
    result.time_spread_pct = time_spread(result.runs)
    for run in result.runs:
        for traces in load_run(Path(run.run_dir)).values():
            for message in traces.warnings:
                if message not in result.warnings:
                    result.warnings.append(message)
    if all(c.identical for c in result.comparisons):
        nothing = all(
            c.evidence == 0 and (c.output is None or c.output.empty) for c in result.comparisons
        )
        result.verdict = "inconclusive" if nothing else "reproducible"
    else:
        result.verdict = "differs"
        result.static_hints = static_hints(command, cuda=used_cuda(result.runs))
        result.node_note = _node_note(result, artifacts)
    _save(result, root)
    return result


def _node_note(result: VerifyResult, artifacts: Sequence[str]) -> Optional[str]:
    """Whether the runs that differ from run 1 are those of another node or device."""
    first = result.runs[0]
    fingerprints: Dict[int, object] = {first.index: first.index}
    others: Dict[str, List[RunOutcome]] = {}  # differing runs by node: compared among themselves
    for comparison in result.comparisons:
        run = next(r for r in result.runs if r.index == comparison.other)
        if comparison.identical:
            fingerprints[run.index] = first.index
            continue
        peers = others.setdefault(nodeinfo.node_label(run.node), [])
        match = next((p for p in peers if compare_runs(Path(p.run_dir), Path(run.run_dir), run.index, artifacts).identical), None)
        fingerprints[run.index] = fingerprints[match.index] if match else run.index
        peers.append(run)
    return nodeinfo.follows_node([(f"run {r.index}", r.node, fingerprints[r.index]) for r in result.runs])


MAX_HINTS = 5


def used_cuda(runs: Sequence[RunOutcome]) -> bool:
    """Whether a run could use CUDA: its node has a GPU the run may see."""
    for run in runs:
        node = run.node or {}
        if node.get("gpus") and (node.get("flags") or {}).get("CUDA_VISIBLE_DEVICES") not in ("", "-1"):
            return True
    return False


def static_findings(command: Sequence[str], cuda: bool = True) -> List[Any]:
    """Findings of `reprolint check` on the command's Python scripts that can act in the
    run: without CUDA, none of a rule that only changes CUDA runs (`Rule.devices`)."""
    scripts = [arg for arg in command if arg.endswith(".py") and Path(arg).is_file()]
    if not scripts:
        return []
    try:
        from reprolint.api import check_paths
        from reprolint.checks.registry import get_rule

        diagnostics = check_paths(scripts).diagnostics
    except Exception:  # the checker is another component; verify must not fail with it
        return []
    found = []
    for d in sorted(diagnostics, key=lambda d: d.sort_key):
        rule = get_rule(d.code)
        if not cuda and rule is not None and not rule.acts_on_cpu(d.data):
            continue
        found.append(d)
    return found


def static_hints(command: Sequence[str], cuda: bool = True, first: Sequence[str] = ()) -> List[str]:
    """Findings of `reprolint check` on the command's Python scripts: likely causes
    (only those that can act in the run; codes in ``first``, a cause a diagnosis
    confirmed, come first).

    Best effort: the report stands without them, so a checker error is swallowed.
    """
    diagnostics = static_findings(command, cuda)
    hints = []
    for d in sorted(diagnostics, key=lambda d: (d.code not in first, d.sort_key)):
        hint = f"{d.code} {d.path}:{d.span.start_line}"
        if hint not in hints:
            hints.append(hint)
    return hints[:MAX_HINTS] + ([f"+{len(hints) - MAX_HINTS} more"] if len(hints) > MAX_HINTS else [])


def recorded_hash_seed(record: Path) -> Optional[str]:
    try:
        value = json.loads(record.read_text(encoding="utf-8")).get("python_hash_seed")
    except (OSError, ValueError):
        return None
    return str(value) if value else None


def _ticker(progress: ProgressFn, run: RunOutcome, total: int) -> _process.TickFn:
    """Live progress: the elapsed time, optimizer steps and last loss of the running
    program, read from its growing trace."""
    live = LiveTrace(Path(run.run_dir))

    def tick(elapsed: float) -> None:
        run.seconds = elapsed
        run.live_steps, run.live_loss = live.poll()
        progress("tick", run, total)

    return tick


def _save(result: VerifyResult, root: Path) -> None:
    # The program may have removed `.reprolint`: the summary is still written.
    try:
        root.mkdir(parents=True, exist_ok=True)
        (root / "verify.json").write_text(json.dumps(result.to_dict(), indent=2, default=str))
    except OSError:
        pass
