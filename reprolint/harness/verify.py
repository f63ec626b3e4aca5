"""`reprolint verify`: run a training command several times and compare the runs.

`verify()` returns data and never prints; progress goes through an optional callback.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import reprolint
from reprolint.harness import artifacts as _artifacts
from reprolint.harness.compare import ProcessComparison, compare_process
from reprolint.harness.output import OutputComparison, compare_outputs
from reprolint.harness.traces import load_run

RUNS_DIR = Path(".reprolint") / "runs"
INJECT_DIR = Path(__file__).resolve().parent / "_inject"
STDERR_TAIL_LINES = 20
# Variables the harness sets for its children; a verify run inside a traced program
# must not inherit its parent's.
_HARNESS_ENV = (
    "REPROLINT_TRACE_DIR",
    "REPROLINT_ROOT_PID",
    "REPROLINT_SESSION",
    "REPROLINT_INSTALL",
    "REPROLINT_MODE",
    "REPROLINT_RECORD",
)


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

    @property
    def ok(self) -> bool:
        return (
            self.returncode == 0
            and not self.timed_out
            and not self.interrupted
            and not self.missing_artifacts
        )

    def failure(self) -> str:
        """Why the run failed, in words (empty when it did not)."""
        if self.interrupted:
            return "interrupted"
        if self.timed_out:
            return f"timed out after {self.seconds:.1f} s"
        if self.returncode != 0:
            return f"exited with code {self.returncode} after {self.seconds:.1f} s"
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


def new_run_root(base: Path = RUNS_DIR) -> Path:
    """`.reprolint/runs/<timestamp>-<random>/`: never reused, so nothing is overwritten."""
    run_id = time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(2)
    root = base / run_id
    root.mkdir(parents=True, exist_ok=False)
    return root


def child_env(
    run_dir: Path,
    replay: bool,
    first: bool,
    record: Path,
    hash_seed: Optional[str],
    base: Optional[Dict[str, str]] = None,
) -> Dict[str, str]:
    """The environment of one run: tracing always; record/replay with `--replay`."""
    env = dict(os.environ if base is None else base)
    for name in _HARNESS_ENV:
        env.pop(name, None)
    old = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(INJECT_DIR) + (os.pathsep + old if old else "")
    # Where the injected sitecustomize finds reprolint if COMMAND runs another Python.
    env["REPROLINT_HOME"] = str(Path(reprolint.__file__).resolve().parent.parent)
    env["REPROLINT_TRACE_DIR"] = str(run_dir.resolve())
    if replay:
        env["REPROLINT_INSTALL"] = "1"
        env["REPROLINT_MODE"] = "record" if first else "replay"
        env["REPROLINT_RECORD"] = str(record.resolve())
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


def _artifact_name(artifact: str) -> str:
    return artifact.replace("\\", "/").strip("/").replace("/", "__")


def _tail(path: Path, lines: int = STDERR_TAIL_LINES) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 16384))
            text = f.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


def _stop(proc: "subprocess.Popen[bytes]", first: int = signal.SIGTERM) -> None:
    """Stop the whole process group (launchers, ranks, DataLoader workers)."""
    for sig, grace in ((first, 5.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            continue


def run_once(
    command: Sequence[str],
    index: int,
    run_dir: Path,
    env: Dict[str, str],
    artifacts: Sequence[str],
    timeout: Optional[float],
) -> RunOutcome:
    """Run the command once; its output goes to stdout.txt / stderr.txt in `run_dir`.

    KeyboardInterrupt stops the command (SIGINT, then SIGKILL) and is re-raised with the
    outcome attached as `exc.outcome`.
    """
    outcome = RunOutcome(index, str(run_dir), python_hash_seed=env.get("PYTHONHASHSEED"))
    before = {a: _stat(Path(a)) for a in artifacts}
    start = time.perf_counter()
    with open(run_dir / "stdout.txt", "wb") as out, open(run_dir / "stderr.txt", "wb") as err:
        try:
            proc = subprocess.Popen(
                list(command), stdout=out, stderr=err, env=env, start_new_session=True
            )
        except OSError as exc:
            err.write(f"reprolint verify: cannot run {command[0]!r}: {exc}\n".encode())
            outcome.returncode = 127
            outcome.stderr_tail = str(exc)
            return outcome
        try:
            outcome.returncode = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _stop(proc)
            outcome.timed_out = True
            outcome.returncode = proc.returncode
        except KeyboardInterrupt as exc:
            # Its own session, so the terminal's Ctrl-C did not reach it: pass it on.
            _stop(proc, signal.SIGINT)
            outcome.interrupted = True
            outcome.returncode = proc.returncode
            outcome.seconds = time.perf_counter() - start
            exc.outcome = outcome  # type: ignore[attr-defined]
            raise
    outcome.seconds = time.perf_counter() - start
    if outcome.returncode != 0 or outcome.timed_out:
        outcome.stderr_tail = _tail(run_dir / "stderr.txt")
        return outcome
    copies = run_dir / "artifacts"
    for artifact in artifacts:
        path = Path(artifact)
        if not path.is_file() or _stat(path) == before[artifact]:
            outcome.missing_artifacts.append(artifact)
            continue
        copies.mkdir(exist_ok=True)
        shutil.copy2(path, copies / _artifact_name(artifact))
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
        name = _artifact_name(artifact)
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
) -> VerifyResult:
    """Run `command` `runs` times and compare every run with the first.

    By default the program is tested as written: only tracing is injected. With
    `replay`, run 1 records its randomness (and PYTHONHASHSEED) and later runs replay it.
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
    try:
        for index in range(1, runs + 1):
            run_dir = root / f"run-{index}"
            run_dir.mkdir()
            if replay and index > 1:
                hash_seed = _recorded_hash_seed(record) or hash_seed
            env = child_env(run_dir, replay, index == 1, record, hash_seed)
            placeholder = RunOutcome(index, str(run_dir))
            if progress:
                progress("start", placeholder, runs)
            outcome = run_once(command, index, run_dir, env, artifacts, timeout)
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
        result.static_hints = static_hints(command)
    _save(result, root)
    return result


MAX_HINTS = 5


def static_hints(command: Sequence[str]) -> List[str]:
    """Findings of `reprolint check` on the command's Python scripts: likely causes.

    Best effort: the report stands without them, so a checker error is swallowed.
    """
    scripts = [arg for arg in command if arg.endswith(".py") and Path(arg).is_file()]
    if not scripts:
        return []
    try:
        from reprolint.api import check_paths

        diagnostics = check_paths(scripts).diagnostics
    except Exception:  # the checker is another component; verify must not fail with it
        return []
    hints = []
    for d in sorted(diagnostics, key=lambda d: d.sort_key):
        hint = f"{d.code} {d.path}:{d.span.start_line}"
        if hint not in hints:
            hints.append(hint)
    return hints[:MAX_HINTS] + ([f"+{len(hints) - MAX_HINTS} more"] if len(hints) > MAX_HINTS else [])


def _recorded_hash_seed(record: Path) -> Optional[str]:
    try:
        value = json.loads(record.read_text(encoding="utf-8")).get("python_hash_seed")
    except (OSError, ValueError):
        return None
    return str(value) if value else None


def _save(result: VerifyResult, root: Path) -> None:
    (root / "verify.json").write_text(json.dumps(result.to_dict(), indent=2, default=str))
