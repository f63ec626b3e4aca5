"""`--jobs N` on this machine: up to N runs at a time, each in its own process group.

Runs are started from worker threads. The main thread keeps the signals: on Ctrl-C or
SIGTERM it raises a flag that every running run's tick sees, and each run stops its
whole process group by the same path as a sequential run does (SIGINT, then SIGKILL).
"""

from __future__ import annotations

import concurrent.futures
import threading
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from reprolint.harness.backends import EndFn, Execution, ExecutionOptions, RunTask, StartFn, max_overlap
from reprolint.harness.backends.nodeinfo import describe, node_label

_POLL = 0.25  # seconds between the main thread's looks at the runs (signals get through)


class LocalExecutor:
    def __init__(self, options: ExecutionOptions) -> None:
        self.jobs = max(1, options.jobs)
        self.execution = Execution("local", self.jobs)
        self._intervals: List[Tuple[float, float]] = []

    def run(self, tasks: Sequence[RunTask], on_start: StartFn, on_end: EndFn) -> List[Any]:
        from reprolint.harness.verify import run_once

        cancel = threading.Event()
        lock = threading.Lock()
        outcomes: Dict[int, Any] = {}

        def one(position: int, task: RunTask) -> None:
            if cancel.is_set():
                return
            with lock:
                on_start(task)

            def tick(elapsed: float) -> None:
                if cancel.is_set():
                    raise KeyboardInterrupt  # process.run stops the group, run_once marks it

            started = time.monotonic()
            try:
                outcome = run_once(task.command, task.index, task.run_dir, task.env,
                                   task.artifacts, task.timeout, on_tick=tick)
            except KeyboardInterrupt as exc:
                outcome = getattr(exc, "outcome")
            outcome.node = describe(task.env)
            with lock:
                self._intervals.append((started, time.monotonic()))
                outcomes[position] = outcome
                on_end(task, outcome)

        interrupted: Optional[BaseException] = None
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="reprolint-run") as pool:
            futures = [pool.submit(one, i, task) for i, task in enumerate(tasks)]
            while True:
                try:
                    done, pending = concurrent.futures.wait(futures, timeout=_POLL)
                    if not pending:
                        break
                except KeyboardInterrupt as exc:
                    interrupted = exc
                    cancel.set()
            for future in futures:
                future.result()  # a bug in a run's thread surfaces here, not silently
        self.execution.max_concurrent = max(self.execution.max_concurrent, max_overlap(self._intervals))
        ordered = [outcomes[i] for i in sorted(outcomes)]
        for outcome in ordered:
            label = node_label(outcome.node)
            if label not in self.execution.nodes:
                self.execution.nodes.append(label)
        if interrupted is not None:
            interrupted.outcomes = ordered  # type: ignore[attr-defined]
            raise interrupted
        return ordered

    def close(self) -> None:
        pass
