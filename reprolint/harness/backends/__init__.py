"""Where the runs of `verify` and `variance` execute: here, one after another or
`--jobs N` at a time, or as Ray tasks on a cluster (`--backend ray`).

Whatever the backend, every run is the user's command started by
`verify.run_once()` with the same injected environment, writing its records into
`<session>/<run key>/`; a backend only decides where and when that happens, and brings
the records back into the local session folder. So the reports, `--resume`, `--plot`
and the JSON do not depend on the backend.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Protocol, Sequence

BACKENDS = ("local", "ray")
FILE_MODES = ("auto", "shared", "upload")


class BackendUnavailable(Exception):
    """The backend cannot be used (Ray missing, no cluster at the address)."""


@dataclass
class ExecutionOptions:
    """How to execute the runs (the command line's --jobs, --backend and friends)."""

    jobs: int = 1
    backend: str = "local"
    address: Optional[str] = None  # Ray: the cluster to join (default: start one here)
    run_resources: Dict[str, float] = field(default_factory=lambda: {"num_cpus": 1.0})
    spread: bool = False  # Ray: every run on another node, round robin over the nodes
    working_dir: str = "auto"  # Ray: auto | shared (same path on every node) | upload

    @property
    def sequential_here(self) -> bool:
        return self.backend == "local" and self.jobs == 1


@dataclass
class RunTask:
    """One run to execute: what `verify.run_once()` takes, plus where it belongs."""

    key: str  # the run folder relative to the session: "run-2", "fixed/run-3"
    index: int
    command: List[str]
    run_dir: Path
    env: Dict[str, str]
    artifacts: Sequence[str] = ()
    timeout: Optional[float] = None
    inputs: List[str] = field(default_factory=list)  # session files the run reads (keys)
    payload: Any = None  # the caller's own object for this run


@dataclass
class Execution:
    """How the runs were executed: saved with the result and shown in the report."""

    backend: str
    jobs: int
    max_concurrent: int = 0  # the most runs that ran at the same time
    spread: bool = False
    address: Optional[str] = None
    working_dir: Optional[str] = None  # Ray: shared | upload
    nodes: List[str] = field(default_factory=list)  # the nodes the runs ran on

    @property
    def overlapped(self) -> bool:
        """Runs shared the machine (or the cluster): their timing figures are perturbed."""
        return self.max_concurrent > 1

    def to_dict(self) -> Dict[str, Any]:
        data = asdict(self)
        data["overlapped"] = self.overlapped
        return data


StartFn = Callable[[RunTask], None]
EndFn = Callable[[RunTask, Any], None]  # (task, verify.RunOutcome)


class Executor(Protocol):
    execution: Execution

    def run(self, tasks: Sequence[RunTask], on_start: StartFn, on_end: EndFn) -> List[Any]:
        """Run every task; return their outcomes (`verify.RunOutcome`) in task order.

        `on_start` and `on_end` are called one at a time. Ctrl-C (or SIGTERM under
        `process.signals_interrupt()`) stops every run and is re-raised with the
        outcomes of the runs that started attached as `exc.outcomes`.
        """

    def close(self) -> None: ...


def parse_resources(text: str) -> Dict[str, float]:
    """`"num_cpus=4,num_gpus=1,accel=1"` -> {"num_cpus": 4.0, "num_gpus": 1.0, "accel": 1.0}."""
    resources: Dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        name = name.strip()
        try:
            amount = float(value)
        except ValueError:
            amount = -1.0
        if not sep or not name or amount < 0:
            raise ValueError(f"--run-resources: expected NAME=AMOUNT, got {part!r}")
        resources[name] = amount
    return resources


def open_executor(options: ExecutionOptions, session_root: Path) -> Executor:
    """The executor for `options`. Raises BackendUnavailable (Ray missing, no cluster)."""
    if options.backend == "ray":
        from reprolint.harness.backends.ray_backend import RayExecutor

        return RayExecutor(options, session_root)
    if options.backend != "local":
        raise ValueError(f"unknown backend {options.backend!r}; expected one of {', '.join(BACKENDS)}")
    from reprolint.harness.backends.local import LocalExecutor

    return LocalExecutor(options)


def max_overlap(intervals: Sequence[tuple]) -> int:
    """The most intervals (start, end) that hold at one instant."""
    events = sorted([(s, 1) for s, _ in intervals] + [(e, -1) for _, e in intervals],
                    key=lambda ev: (ev[0], ev[1]))
    depth = best = 0
    for _, step in events:
        depth += step
        best = max(best, depth)
    return best
