"""`variance`'s runs through a backend executor (`--jobs N`, `--backend ray`).

The same runs as `variance` makes in turn, with the same seeds and environments, the
same `run.json` per run (what `--resume` keeps) and the same order in the result.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from reprolint.harness import process as _process
from reprolint.harness.backends import ExecutionOptions, RunTask, open_executor
from reprolint.harness.traces import load_run


def run_all(
    result: Any,  # variance.VarianceResult, filled in place
    root: Path,
    command: Sequence[str],
    planned: Sequence[Any],
    resume: bool,
    deterministic: bool,
    timeout: Optional[float],
    progress: Any,
    options: ExecutionOptions,
    seed_arg: Optional[str],
    seed_env: Optional[str],
) -> None:
    from reprolint.harness.variance import (
        RunRecord, save_run, collect, load_finished, prepare_run_dir, run_command, run_env,
    )

    total = len(planned)
    done: Dict[int, Any] = {}
    tasks: List[RunTask] = []
    for position, (group, index, run_seed) in enumerate(planned, start=1):
        run_dir = root / group / f"run-{index}"
        kept = load_finished(run_dir, root) if resume else None
        if kept is not None and kept.seed == run_seed:
            done[position] = kept
            if progress:
                progress("end", kept, position, total)
            continue
        prepare_run_dir(run_dir, root)
        record = RunRecord(group, index, run_seed, str(run_dir))
        env = run_env(run_dir, run_seed, deterministic, seed_env)
        tasks.append(RunTask(f"{group}/run-{index}", index, run_command(command, run_seed, seed_arg),
                             run_dir, env, (), timeout, payload=(position, record)))

    def on_start(task: RunTask) -> None:
        position, record = task.payload
        if progress:
            progress("start", record, position, total)

    def on_end(task: RunTask, outcome: Any) -> None:
        position, record = task.payload
        record.returncode, record.seconds = outcome.returncode, outcome.seconds
        record.failure = outcome.failure()
        record.stderr_tail = outcome.stderr_tail
        record.node = outcome.node
        if not outcome.interrupted:
            collect(record, load_run(task.run_dir))
        save_run(record)
        done[position] = record
        if progress:
            progress("end", record, position, total)

    executor = open_executor(options, root) if tasks else None
    try:
        with _process.signals_interrupt():
            if executor is not None:
                executor.run(tasks, on_start, on_end)
    except KeyboardInterrupt:
        result.verdict = "interrupted"
    finally:
        if executor is not None:
            executor.close()
            result.execution = executor.execution.to_dict()
    result.runs.extend(done[p] for p in sorted(done))
