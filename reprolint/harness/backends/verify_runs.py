"""`verify`'s runs through a backend executor (`--jobs N`, `--backend ray`).

The same runs as `verify` makes in turn, with the same environments: with `--replay`,
run 1 records alone first, and the later runs replay its record side by side.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from reprolint.harness import process as _process
from reprolint.harness.backends import ExecutionOptions, RunTask, open_executor


def run_all(
    result: Any,  # verify.VerifyResult, filled in place
    root: Path,
    command: Sequence[str],
    runs: int,
    replay: bool,
    artifacts: Sequence[str],
    timeout: Optional[float],
    progress: Any,
    options: ExecutionOptions,
    record: Path,
    hash_seed: Optional[str],
    extra_env: Optional[Dict[str, str]] = None,
) -> None:
    from reprolint.harness.verify import RunOutcome, recorded_hash_seed, child_env

    batches: List[List[int]] = [[1], list(range(2, runs + 1))] if replay else [list(range(1, runs + 1))]

    def task(index: int) -> RunTask:
        run_dir = root / f"run-{index}"
        run_dir.mkdir(parents=True, exist_ok=True)
        env = child_env(run_dir, replay, index == 1, record, hash_seed, extra=extra_env)
        inputs = [str(record.relative_to(root))] if replay and index > 1 else []
        return RunTask(f"run-{index}", index, list(command), run_dir, env, artifacts, timeout, inputs)

    def on_start(t: RunTask) -> None:
        if progress:
            progress("start", RunOutcome(t.index, str(t.run_dir)), runs)

    def on_end(t: RunTask, outcome: Any) -> None:
        if progress:
            progress("end", outcome, runs)

    executor = open_executor(options, root)
    try:
        with _process.signals_interrupt():
            for batch in batches:
                if replay and batch[0] > 1:
                    hash_seed = recorded_hash_seed(record) or hash_seed
                outcomes = executor.run([task(i) for i in batch], on_start, on_end)
                result.runs.extend(outcomes)
                if not all(o.ok for o in outcomes):
                    result.verdict = "failed"
                    break
    except KeyboardInterrupt as exc:
        result.runs.extend(getattr(exc, "outcomes", []))
        result.verdict = "interrupted"
        if isinstance(exc, _process.Terminated):
            result.warnings.append(f"verify received {exc}: the runs were stopped")
    finally:
        executor.close()
        result.execution = executor.execution.to_dict()
    result.runs.sort(key=lambda r: r.index)
