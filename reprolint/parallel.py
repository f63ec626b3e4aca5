"""Run a per-file function over many files: in this process, or in a pool of processes.

Results come back in the order of the input, whatever order the workers finish in, so
output never depends on ``--jobs``. Small runs stay in-process: starting workers costs
more than a few files are worth (the pre-commit case checks one or two files).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable, Optional, Sequence, TypeVar

if TYPE_CHECKING:
    import multiprocessing.context

__all__ = ["IN_PROCESS_BELOW", "default_jobs", "run_ordered"]

T = TypeVar("T")
R = TypeVar("R")

# Fewer files than this are analysed in-process even when more jobs are allowed: a worker
# needs ~0.3 s to start and import libcst, about what ten average files cost to parse.
IN_PROCESS_BELOW = 16


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _context() -> "multiprocessing.context.BaseContext":
    # fork shares the already-imported modules with the workers (fast start); where it
    # is unavailable or unsafe (macOS, Windows) the platform default is used.
    import multiprocessing

    if "fork" in multiprocessing.get_all_start_methods() and os.name == "posix":
        import sys

        if sys.platform != "darwin":
            return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def run_ordered(
    func: Callable[[T], R],
    items: Sequence[T],
    jobs: Optional[int] = None,
    on_result: Optional[Callable[[int, R], None]] = None,
) -> list[R]:
    """``[func(x) for x in items]``, on up to ``jobs`` processes (None: every core).

    ``on_result(index, result)`` is called in the parent as results arrive (for a
    progress bar and for writing the cache); the returned list is in input order.
    ``func`` must be a module-level function and never raise.
    """
    jobs = default_jobs() if jobs is None or jobs <= 0 else jobs
    jobs = min(jobs, len(items))
    results: list[Optional[R]] = [None] * len(items)
    if jobs <= 1 or len(items) < IN_PROCESS_BELOW:
        for index, item in enumerate(items):
            results[index] = func(item)
            if on_result is not None:
                on_result(index, results[index])  # type: ignore[arg-type]
        return results  # type: ignore[return-value]
    # Imported here: multiprocessing and concurrent.futures cost ~20 ms of start-up,
    # which a one-file run (the pre-commit case) never needs.
    from concurrent.futures import ProcessPoolExecutor as pool_class

    # One file per task, largest first: a file costs milliseconds to send and tens to
    # hundreds to analyse, and handing out the big files first leaves no worker with a
    # long tail at the end (chunks of several files sorted by size did: the first chunk
    # held the eight largest files).
    order = _balanced(items)
    with pool_class(max_workers=jobs, mp_context=_context()) as pool:
        for index, result in zip(order, pool.map(func, [items[i] for i in order], chunksize=1)):
            results[index] = result
            if on_result is not None:
                on_result(index, result)
    return results  # type: ignore[return-value]


def _balanced(items: Sequence[T]) -> list[int]:
    """Indexes, largest files first (so no worker is left with one huge file at the end)."""

    def size(index: int) -> int:
        item = items[index]
        # A path, or a task tuple that starts with one.
        path = item[0] if isinstance(item, tuple) and item else item
        try:
            return os.path.getsize(path) if isinstance(path, str) else 0
        except OSError:
            return 0

    return sorted(range(len(items)), key=lambda i: -size(i))


