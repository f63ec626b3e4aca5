"""`reprolint profile`: find the first op whose outputs differ between two identical runs.

The command runs twice for `steps` optimizer steps under the op recorder
(`_profile_recorder`, injected like verify's tracing). The two op sequences are then
walked side by side. At the first op where anything differs:

* inputs equal, outputs differ: the op itself is nondeterministic (`verdict="op"`), or,
  when the op draws from a random generator, the generator's state differs between
  the runs (`verdict="random"`: an unseeded or differently seeded RNG);
* inputs differ: the difference came from outside torch's ops (`verdict="inputs"`:
  data built in Python or NumPy, str hash order, the clock, file order);
* the op itself differs: the runs took different paths (`verdict="control-flow"`).

A third run, stopped at that op, records its Python stack (only there: stacks are
expensive), the module path and, for a backward op, the forward line that created it.
`profile()` returns data and never prints.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

from reprolint.harness import _profile_recorder as recorder
from reprolint.harness import process as _process
from reprolint.harness._profile_advice import Advice, advice_for
from reprolint.harness.process import RUNS_DIR, new_run_root
from reprolint.harness.verify import static_hints


@dataclass
class ProfileRun:
    """One run of the command under the recorder."""

    label: str  # "run 1", "run 2", "locate"
    run_dir: str
    returncode: Optional[int] = None
    seconds: float = 0.0
    timed_out: bool = False
    stderr_tail: str = ""
    recorded: bool = False
    ops: int = 0
    steps: int = 0
    complete: bool = False  # stopped after --steps optimizer steps
    live_ops: int = 0  # while it runs: ops recorded, steps done, ops before training skipped
    live_steps: int = 0
    live_skipped: int = 0

    @property
    def ok(self) -> bool:
        # Stopped by the recorder after --steps steps, or ended by itself without error.
        finished = self.complete or self.returncode == 0
        return self.recorded and self.ops > 0 and finished and not self.timed_out

    def failure(self) -> str:
        if self.timed_out:
            return f"timed out after {self.seconds:.1f} s"
        if self.returncode not in (0, None) and not self.complete:
            return f"exited with code {self.returncode} after {self.seconds:.1f} s"
        if not self.recorded or self.ops == 0:
            return "dispatched no torch ops in its main process (does it use torch, in this Python process?)"
        return ""


@dataclass
class Location:
    """Where the diverging op ran, from the locating run."""

    file: Optional[str] = None
    line: Optional[int] = None
    function: Optional[str] = None
    code: str = ""
    module: Optional[str] = None  # "model.layer3.conv1"
    module_class: Optional[str] = None
    backward_of: Optional[str] = None  # the autograd node, for a backward op
    forward_file: Optional[str] = None  # for a backward op: the forward line
    forward_line: Optional[int] = None
    forward_function: Optional[str] = None
    forward_code: str = ""

    @property
    def source(self) -> Optional[str]:
        return f"{self.file}:{self.line}" if self.file else None

    @property
    def forward_source(self) -> Optional[str]:
        return f"{self.forward_file}:{self.forward_line}" if self.forward_file else None


@dataclass
class Divergence:
    """The first op at which the two runs differ."""

    verdict: str  # op | random | inputs | control-flow
    index: int  # 0-based op number; also how many ops ran identically before it
    op: str
    other_op: Optional[str] = None  # control-flow: what run 2 ran instead
    step: int = 1  # the optimizer step it belongs to (1-based)
    phase: str = "forward"  # forward | backward | optimizer step
    differing: List[str] = field(default_factory=list)  # "output 0 (float32[32])"
    location: Location = field(default_factory=Location)
    advice: Optional[Advice] = None


@dataclass
class ProfileResult:
    command: List[str]
    run_root: str
    steps: int
    runs: List[ProfileRun] = field(default_factory=list)
    verdict: str = "identical"  # identical | diverged | failed | interrupted
    ops_compared: int = 0
    divergence: Optional[Divergence] = None
    static_hints: List[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return {"identical": 0, "diverged": 1}.get(self.verdict, 2)

    def to_dict(self) -> Dict[str, Any]:
        data = asdict(self)
        data["exit_code"] = self.exit_code
        if self.divergence is not None:
            data["divergence"]["location"]["source"] = self.divergence.location.source
            data["divergence"]["location"]["forward_source"] = self.divergence.location.forward_source
        return data


# --------------------------------------------------------------------------- running


def profile_env(out: Path, steps: int, capture: Optional[int] = None, backward: bool = False,
                base: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """The environment of one profiled run: the recorder, nothing seeded or pinned."""
    env = _process.harness_env(base)
    env[recorder.ENV_OUT] = str(out.resolve())
    env[recorder.ENV_STEPS] = str(steps)
    if capture is not None:
        env[recorder.ENV_CAPTURE] = str(capture)
        if backward:
            env[recorder.ENV_CAPTURE_BACKWARD] = "1"
    return env


def _run(command: Sequence[str], run: ProfileRun, env: Dict[str, str], timeout: Optional[float],
         progress: Optional["ProgressFn"] = None) -> Optional[Dict[str, Any]]:
    run_dir = Path(run.run_dir)
    live = run_dir / "ops.json.progress"

    def tick(elapsed: float) -> None:
        run.seconds = elapsed
        try:
            run.live_ops, run.live_steps, run.live_skipped = (int(v) for v in live.read_text().split())
        except (OSError, ValueError):
            pass
        if progress:
            progress("tick", run)

    # The recorder ends the main process at once after --steps steps; the process
    # module stops DataLoader workers and other children of the command with it.
    finished = _process.run(command, run_dir / "stdout.txt", run_dir / "stderr.txt", env, timeout,
                            on_tick=tick)
    run.returncode, run.seconds, run.timed_out = finished.returncode, finished.seconds, finished.timed_out
    if finished.start_error is not None:
        run.stderr_tail = finished.start_error
        return None
    record = _load(run_dir / "ops.json")
    if record is None:
        run.stderr_tail = _process.tail(run_dir / "stderr.txt")
        return None
    run.recorded = True
    run.ops = len(record["ops"])
    run.steps = record["steps"]
    run.complete = record["complete"]
    if not run.ok:
        run.stderr_tail = _process.tail(run_dir / "stderr.txt")
    return record


def _load(path: Path) -> Optional[Dict[str, Any]]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    except (OSError, ValueError):
        return None


ProgressFn = Callable[[str, ProfileRun], None]


def profile(
    command: Sequence[str],
    steps: int = 2,
    timeout: Optional[float] = None,
    progress: Optional[ProgressFn] = None,
    base_dir: Path = RUNS_DIR,
) -> ProfileResult:
    """Run `command` twice for `steps` optimizer steps and find the first diverging op."""
    if steps < 1:
        raise ValueError("profile needs at least 1 step")
    root = new_run_root(base_dir)
    result = ProfileResult(list(command), str(root), steps)
    (root / "command.json").write_text(json.dumps({"command": list(command), "profile_steps": steps, "cwd": os.getcwd()}, indent=2))
    try:
        with _process.signals_interrupt():
            _profile_runs(command, steps, timeout, progress, root, result)
    except KeyboardInterrupt:
        result.verdict = "interrupted"
    _save(result, root)
    return result


def _profile_runs(command: Sequence[str], steps: int, timeout: Optional[float],
                  progress: Optional[ProgressFn], root: Path, result: ProfileResult) -> None:
    """The two recorded runs, their comparison and the locating run; fills `result`."""
    records = []
    for index in (1, 2):
        run = ProfileRun(f"run {index}", str(root / f"profile-{index}"))
        Path(run.run_dir).mkdir(parents=True, exist_ok=True)
        if progress:
            progress("start", run)
        record = _run(command, run, profile_env(Path(run.run_dir) / "ops.json", steps), timeout, progress)
        result.runs.append(run)
        if progress:
            progress("end", run)
        if not run.ok:
            result.verdict = "failed"
            return
        records.append(record)
    a, b = records
    divergence = first_divergence(a, b)
    result.ops_compared = min(len(a["ops"]), len(b["ops"])) if divergence is None else divergence.index
    if divergence is None:
        result.verdict = "identical"
        return
    result.verdict = "diverged"
    result.divergence = divergence
    divergence.advice = advice_for(divergence.op, divergence.verdict, a.get("torch") or None)
    run = ProfileRun("locate", str(root / "locate"))
    Path(run.run_dir).mkdir(parents=True, exist_ok=True)
    if progress:
        progress("start", run)
    env = profile_env(Path(run.run_dir) / "ops.json", steps, capture=divergence.index,
                      backward=divergence.phase == "backward")
    located = _run(command, run, env, timeout, progress)
    result.runs.append(run)
    if progress:
        progress("end", run)
    if located is not None and located.get("capture"):
        _apply_capture(divergence, located["capture"])
    if divergence.verdict in ("inputs", "random", "control-flow"):
        from reprolint.harness.backends import nodeinfo

        # Profiles run here: a machine without a GPU the run can see runs on the CPU.
        cuda = bool(nodeinfo.gpus()) and os.environ.get("CUDA_VISIBLE_DEVICES") not in ("", "-1")
        result.static_hints = static_hints(command, cuda=cuda)


def _save(result: ProfileResult, root: Path) -> None:
    try:
        root.mkdir(parents=True, exist_ok=True)
        (root / "profile.json").write_text(json.dumps(result.to_dict(), indent=2, default=str))
    except OSError:  # the program may have removed `.reprolint`
        pass


# --------------------------------------------------------------------------- comparing


def _phase(record: Dict[str, Any], op: List[Any]) -> str:
    where, flags = op[5], op[6]
    if flags & recorder.FLAG_OPTIMIZER:
        return "optimizer step"
    if where is not None and where < 0:
        return "backward"
    return "forward"


def _step_of(record: Dict[str, Any], index: int) -> int:
    return 1 + sum(1 for boundary in record["boundaries"] if boundary <= index)


def _described(meta: str, which: str, positions: List[int]) -> List[str]:
    parts = [p for p in meta.split(";") if p and "[" in p] if meta else []
    return [f"{which} {i}" + (f" ({parts[i]})" if i < len(parts) else "") for i in positions]


def _differing(x: List[Any], y: List[Any]) -> List[int]:
    if len(x) != len(y):
        return list(range(max(len(x), len(y))))
    return [i for i, (p, q) in enumerate(zip(x, y)) if p is not None and q is not None and p != q]


def first_divergence(a: Dict[str, Any], b: Dict[str, Any]) -> Optional[Divergence]:
    """The first op at which two records differ, or None when every op agrees."""
    names_a, names_b = a["tables"]["names"], b["tables"]["names"]
    meta_a, meta_b = a["tables"]["meta"], b["tables"]["meta"]
    ops_a, ops_b = a["ops"], b["ops"]
    for index, (x, y) in enumerate(zip(ops_a, ops_b)):
        name = names_a[x[0]]
        if name != names_b[y[0]]:
            return Divergence("control-flow", index, name, other_op=names_b[y[0]],
                              step=_step_of(a, index), phase=_phase(a, x))
        if meta_a[x[2]] != meta_b[y[2]] or _differing(x[1], y[1]):
            differing = _differing(x[1], y[1])
            what = _described(meta_a[x[2]], "input", differing) or ["its non-tensor arguments or shapes"]
            return Divergence("inputs", index, name, step=_step_of(a, index), phase=_phase(a, x), differing=what)
        if meta_a[x[4]] != meta_b[y[4]] or _differing(x[3], y[3]):
            verdict = "random" if x[6] & recorder.FLAG_RANDOM else "op"
            what = _described(meta_a[x[4]], "output", _differing(x[3], y[3])) or ["its output shapes"]
            return Divergence(verdict, index, name, step=_step_of(a, index), phase=_phase(a, x), differing=what)
    if len(ops_a) != len(ops_b):
        index = min(len(ops_a), len(ops_b))
        longer, shorter = (a, b) if len(ops_a) > len(ops_b) else (b, a)
        op = longer["tables"]["names"][longer["ops"][index][0]]
        return Divergence("control-flow", index, op if longer is a else "<end>",
                          other_op="<end>" if longer is a else op, step=_step_of(longer, index))
    return None


def _frame_file(path: str) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative.startswith(".." + os.sep + "..") else relative


def _apply_capture(divergence: Divergence, capture: Dict[str, Any]) -> None:
    if capture.get("op") != divergence.op:
        return  # the locating run went another way: no location rather than a wrong one
    location = divergence.location
    frame = capture.get("user_frame")
    if frame:
        location.file = _frame_file(frame["file"])
        location.line = frame["line"]
        location.function = frame["function"]
        location.code = frame["code"]
    module = capture.get("module")
    if module:
        path = module["path"]
        variable = capture.get("root_variable")
        if variable and (path == recorder.ROOT_NAME or path.startswith(recorder.ROOT_NAME + ".")):
            path = variable + path[len(recorder.ROOT_NAME):]
        location.module = path
        location.module_class = module["class"] or None
    location.backward_of = capture.get("node")
    forward = capture.get("forward_frame")
    if forward:
        location.forward_file = _frame_file(forward["file"])
        location.forward_line = forward["line"]
        location.forward_function = forward["function"]
        location.forward_code = forward["code"]
