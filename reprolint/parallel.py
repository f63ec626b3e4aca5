"""Run a per-file function over many files: in this process, or in a pool of processes.

Results come back in the order of the input, whatever order the workers finish in, so
output never depends on ``--jobs``. Small runs stay in-process: starting workers costs
more than a few files are worth (the pre-commit case checks one or two files).
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence, TypeVar

if TYPE_CHECKING:
    import multiprocessing.connection
    import multiprocessing.context

__all__ = ["IN_PROCESS_BELOW", "Crash", "default_jobs", "forks", "run_ordered"]

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


def forks() -> bool:
    """Whether workers are forked (they then start with this process's memory: a
    function run there may read state set up here instead of receiving it)."""
    return _context().get_start_method() == "fork"


class Crash(Exception):
    """Why a worker gave no result for one item: it died (a signal, e.g. a segfault in
    libcst's native parser, or the kernel's out-of-memory killer) or ran past the
    per-item time limit."""


def run_ordered(
    func: Callable[[T], R],
    items: Sequence[T],
    jobs: Optional[int] = None,
    on_result: Optional[Callable[[int, R], None]] = None,
    *,
    on_crash: Optional[Callable[[T, Crash], R]] = None,
    timeout: Optional[float] = None,
    warm_up: Optional[Callable[[], None]] = None,
    in_process_below: int = IN_PROCESS_BELOW,
) -> list[R]:
    """``[func(x) for x in items]``, on up to ``jobs`` processes (None: every core).

    ``on_result(index, result)`` is called in the parent as results arrive (for a
    progress bar and for writing the cache); the returned list is in input order.
    ``func`` must be a module-level function and never raise.

    In worker processes each item is isolated: when the worker dies on an item or runs
    past ``timeout`` seconds on it, the item's result is ``on_crash(item, Crash(why))``
    (without ``on_crash``, the Crash is raised), the worker is replaced, and the other
    items go on. Small runs stay in this process, unprotected: there the cheap pre-checks
    of the items (see :func:`reprolint.api.analyse_source`) are the guard.

    ``warm_up()``, when given, runs in this process just before workers start (never
    for an in-process run): what it imports or loads, forked workers share instead of
    each loading it again.

    ``in_process_below``: fewer items than this run in this process (the default suits
    items that cost about what parsing a file does).
    """
    jobs = default_jobs() if jobs is None or jobs <= 0 else jobs
    jobs = min(jobs, len(items))
    results: list[Optional[R]] = [None] * len(items)
    if jobs <= 1 or len(items) < in_process_below:
        for index, item in enumerate(items):
            results[index] = func(item)
            if on_result is not None:
                on_result(index, results[index])  # type: ignore[arg-type]
        return results  # type: ignore[return-value]

    def arrived(index: int, result: R) -> None:
        results[index] = result
        if on_result is not None:
            on_result(index, result)

    def crashed(index: int, why: Crash) -> None:
        if on_crash is None:
            raise why
        arrived(index, on_crash(items[index], why))

    if warm_up is not None:
        warm_up()
    # One item per task, largest first: a file costs milliseconds to send and tens to
    # hundreds to analyse, and handing out the big files first leaves no worker with a
    # long tail at the end (chunks of several files sorted by size did: the first chunk
    # held the eight largest files).
    _supervise(func, items, _balanced(items), jobs, arrived, crashed, timeout)
    return results  # type: ignore[return-value]


class _Worker:
    """One worker process and the pipe it takes items from and sends results on."""

    def __init__(self, func: Callable[[Any], Any]) -> None:
        context = _context()
        self.conn, theirs = context.Pipe()
        # The worker gets our end too, to close it: a forked child inherits it, and while
        # the child holds it, closing it here never reaches the child as EOF.
        self.process = context.Process(target=_serve, args=(func, theirs, self.conn), daemon=True)
        self.process.start()
        theirs.close()
        self.index: Optional[int] = None
        self.started = 0.0

    def give(self, index: int, item: Any) -> None:
        self.index, self.started = index, time.monotonic()
        self.conn.send(item)

    def stop(self, kill: bool = False) -> None:
        self.release(kill)
        self.reap()

    def release(self, kill: bool = False) -> None:
        """Close our end of the pipe: the worker sees EOF and exits (or kill it now)."""
        if kill:
            self.process.kill()
        self.conn.close()

    def reap(self) -> None:
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


def _serve(
    func: Callable[[Any], Any],
    conn: "multiprocessing.connection.Connection",
    ours: "Optional[multiprocessing.connection.Connection]" = None,
) -> None:
    """A worker's loop: an item in, its result out, until the parent closes the pipe."""
    import signal

    if ours is not None:
        ours.close()

    # Ctrl-C reaches the whole process group: the parent stops the workers, and a worker
    # printing its own KeyboardInterrupt traceback would only bury the parent's message.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _bound_memory()
    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(func(item))


# A worker may use this much more address space than it had when it started: a file
# that needs more fails alone (MemoryError, or the native parser aborts) instead of
# taking the machine's memory from every other process.
WORKER_MEMORY_HEADROOM = 4 * 2**30


def _bound_memory() -> None:
    try:
        import resource

        with open("/proc/self/statm") as statm:
            size = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = size + WORKER_MEMORY_HEADROOM
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        if soft == resource.RLIM_INFINITY or soft > limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, OSError, ValueError):
        pass  # not Linux: no bound (the parent still survives a worker's death)


def _why(worker: _Worker, timeout: Optional[float]) -> Crash:
    code = worker.process.exitcode
    if code is None:
        if timeout is None:
            return Crash("the parser's process stopped answering")
        return Crash(f"took more than {timeout:g} s (the per-file time limit)")
    if code < 0:
        import signal

        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return Crash(f"the parser's process died ({name}: a crash or out of memory)")
    return Crash(f"the parser's process exited with status {code}")


def _supervise(
    func: Callable[[T], R],
    items: Sequence[T],
    order: list[int],
    jobs: int,
    arrived: Callable[[int, R], None],
    crashed: Callable[[int, Crash], None],
    timeout: Optional[float],
) -> None:
    from multiprocessing.connection import wait

    queue = list(reversed(order))  # pop() takes the largest first
    workers: list[_Worker] = []

    def feed(worker: _Worker) -> None:
        if queue:
            index = queue.pop()
            worker.give(index, items[index])
        else:
            worker.index = None

    try:
        for _ in range(jobs):
            worker = _Worker(func)
            workers.append(worker)
            feed(worker)
        while True:
            busy = [w for w in workers if w.index is not None]
            if not busy:
                return
            wait_for = None
            if timeout is not None:
                wait_for = max(0.0, min(w.started for w in busy) + timeout - time.monotonic())
            ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy], wait_for)
            now = time.monotonic()
            for worker in busy:
                index = worker.index
                assert index is not None
                if worker.conn in ready:
                    try:
                        result = worker.conn.recv()
                    except (EOFError, OSError):
                        pass  # it died: below
                    else:
                        arrived(index, result)
                        feed(worker)
                        continue
                died = worker.conn in ready or worker.process.sentinel in ready
                overdue = timeout is not None and now - worker.started > timeout
                if not died and not overdue:
                    continue
                if died:
                    worker.process.join(1)  # for its exit status
                why = _why(worker, timeout)  # before the kill, which sets another status
                worker.stop(kill=True)
                crashed(index, why)
                replacement = _Worker(func)
                workers[workers.index(worker)] = replacement
                feed(replacement)
    finally:
        # Every pipe is closed before any worker is waited for: a forked worker holds
        # copies of the parent's ends of the pipes of the workers started before it, so
        # an earlier worker sees EOF only once the later ones have exited. Closing and
        # joining one worker at a time waited out the 5 s join of each.
        for worker in workers:
            worker.release(kill=worker.index is not None)
        for worker in workers:
            worker.reap()


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


