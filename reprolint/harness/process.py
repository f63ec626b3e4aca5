"""Running the user's command, for verify, profile and variance alike.

* Each run gets its own session (process group), so that a launcher, its ranks and
  DataLoader workers can be stopped together. The group is stopped on every way out of
  a run: normal exit with children still running, a failure, a time-out, Ctrl-C, and
  SIGTERM or SIGHUP sent to reprolint itself (what `timeout`, CI cancellation and
  systemd send): nothing is left behind.
* The child's environment: the injected `sitecustomize` on `PYTHONPATH`, the
  `REPROLINT_*` variables of `reprolint.runtime.environment`, none inherited from a
  harness this one runs inside.
* Records: `.reprolint/runs/<timestamp>-<random>/`, never reused; `.reprolint/` holds
  a `.gitignore` of its own, and only the newest sessions are kept
  (`REPROLINT_KEEP_RUNS`, default 20; 0 keeps all).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable, Dict, Iterator, List, Optional, Sequence

import reprolint
from reprolint.runtime import environment as renv

RECORDS_DIR = Path(".reprolint")
RUNS_DIR = RECORDS_DIR / "runs"
INJECT_DIR = Path(__file__).resolve().parent / "_inject"
KEEP_RUNS_ENV = "REPROLINT_KEEP_RUNS"
DEFAULT_KEEP_RUNS = 20
STDERR_TAIL_LINES = 20
_SESSION_NAME = re.compile(r"^\d{8}-\d{6}-[0-9a-f]+$")  # ours, and install()'s records
_GRACE = 5.0  # seconds between SIGTERM (or SIGINT) and SIGKILL


class RecordsUnavailable(Exception):
    """The records folder cannot be written (a read-only working directory)."""


class Terminated(KeyboardInterrupt):
    """reprolint itself was sent SIGTERM or SIGHUP: stop like Ctrl-C, then exit."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


# --------------------------------------------------------------------------- records


def keep_runs() -> int:
    """How many sessions `.reprolint/runs` keeps (`REPROLINT_KEEP_RUNS`; 0: all)."""
    text = os.environ.get(KEEP_RUNS_ENV, "")
    try:
        return max(0, int(text)) if text.strip() else DEFAULT_KEEP_RUNS
    except ValueError:
        return DEFAULT_KEEP_RUNS


def link_on_the_way(path: Path, root: Optional[Path] = None) -> Optional[Path]:
    """The first part of `path` that is a symbolic link (None when there is none).

    Checked from `root` down when given; else a relative path from the working
    directory down, an absolute one from the working directory when it lies below it,
    else its last two parts (the `.reprolint/runs` pair). Records are never read,
    written or deleted through a link: a repository can commit `.reprolint` as a link.
    """
    relative = root is None and not Path(path).is_absolute()
    path = Path(os.path.abspath(path))
    here = Path(os.path.abspath(root if root is not None else os.curdir))
    try:
        parts = path.relative_to(here).parts
    except ValueError:
        if root is not None:
            return path
        parts = path.parts[-2:]
        here = path.parents[1] if len(path.parts) > 2 else Path(path.anchor)
    for part in parts:
        here = here / part
        if os.path.islink(here):
            return Path(os.path.relpath(here)) if relative else here
    return None


def refuse_links(path: Path, root: Optional[Path] = None) -> None:
    """Raise RecordsUnavailable when a part of `path` is a symbolic link."""
    link = link_on_the_way(path, root)
    if link is not None:
        raise RecordsUnavailable(
            f"{link} is a symbolic link: reprolint keeps its run records only in real folders inside "
            "the project and never follows a link there (remove it, or run elsewhere)"
        )


def remove_tree(path: Path, within: Path) -> None:
    """Remove the folder `path` of the session `within`, never through a link: a link
    on the way raises RecordsUnavailable; links inside the folder go, unfollowed."""
    refuse_links(within)
    refuse_links(path, within)
    shutil.rmtree(path, ignore_errors=True)


def new_run_root(base: Path = RUNS_DIR) -> Path:
    """A new session folder under `base`: never reused, so nothing is overwritten.

    Raises RecordsUnavailable, with a message for the user, when it cannot be made, or
    when `base` (or a folder on the way to it) is a link.
    """
    refuse_links(base)
    now = time.time()
    # Microseconds first, so that names sort in creation order even within a second.
    run_id = time.strftime("%Y%m%d-%H%M%S", time.localtime(now)) + f"-{int(now * 1e6) % 1_000_000:06d}" + secrets.token_hex(2)
    root = base / run_id
    try:
        root.mkdir(parents=True, exist_ok=False)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise RecordsUnavailable(
            f"cannot write the run records under {base} in {os.getcwd()} ({reason}); "
            "run from a directory you can write to"
        ) from None
    refuse_links(root)  # a link planted while the folders were made
    _hold(root)
    _ignore_records(base)
    prune_sessions(base, keep_runs(), current=root)
    return root


_LOCK_FILE = ".in-use"
_held: Dict[str, int] = {}  # the session this process runs (real path -> locked descriptor)


def _hold(session: Path) -> None:
    """Mark `session` as in use (an exclusive lock on its `.in-use` file, held until this
    process starts another session or exits), so that pruning and `clean --runs` by
    other processes leave it alone. A process runs one session at a time."""
    try:
        import fcntl
    except ImportError:  # no advisory locks (Windows): sessions are pruned by age only
        return
    for fd in _held.values():
        with contextlib.suppress(OSError):
            os.close(fd)
    _held.clear()
    try:
        fd = os.open(session / _LOCK_FILE, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return
    _held[os.path.realpath(session)] = fd


def in_use(session: Path) -> bool:
    """Whether a verify, profile or variance still running in another process holds
    `session` (this process's own session is its to prune or clean)."""
    try:
        import fcntl
    except ImportError:
        return False
    if os.path.realpath(session) in _held:
        return False
    try:
        fd = os.open(session / _LOCK_FILE, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False  # no lock file: a session of an older reprolint, or one not running
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # closing releases a lock taken here
    return False


def _ignore_records(base: Path) -> None:
    # `.reprolint/` is reprolint's own folder: git ignores all of it.
    if base.parent.name != RECORDS_DIR.name:
        return
    ignore = base.parent / ".gitignore"
    if not os.path.lexists(ignore):
        with contextlib.suppress(OSError):
            fd = os.open(ignore, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write("# Written by reprolint: run records stay out of git.\n*\n")


def sessions(base: Path = RUNS_DIR) -> List[Path]:
    """The session folders reprolint made under `base`, oldest first (none when `base`
    or a folder on the way to it is a link)."""
    if link_on_the_way(base) is not None:
        return []
    try:
        found = [p for p in base.iterdir() if _SESSION_NAME.match(p.name) and p.is_dir() and not p.is_symlink()]
    except OSError:
        return []
    return sorted(found, key=lambda p: p.name)


def prune_sessions(base: Path, keep: int, current: Optional[Path] = None) -> List[Path]:
    """Remove all but the newest `keep` sessions, `current` included (0: remove none).
    Returns what went."""
    if keep <= 0:
        return []
    found = [p for p in sessions(base) if p != current]
    excess = len(found) + (1 if current is not None else 0) - keep
    removed = []
    for old in found[: max(0, excess)]:
        if in_use(old):
            continue  # still running (here or elsewhere): pruned by a later session
        shutil.rmtree(old, ignore_errors=True)
        removed.append(old)
    return removed



def remove_sessions(base: Path = RUNS_DIR) -> int:
    """`reprolint clean --runs`: remove every session folder. Returns how many.

    Raises RecordsUnavailable when `base` or a folder on the way is a link."""
    refuse_links(base)
    found = [old for old in sessions(base) if not in_use(old)]
    for old in found:
        shutil.rmtree(old, ignore_errors=True)
    return len(found)


# --------------------------------------------------------------------------- environment


def harness_env(base: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """The environment every harness child starts from: sitecustomize injected, no
    `REPROLINT_*` inherited from a harness this one runs inside."""
    env = dict(os.environ if base is None else base)
    for name in renv.HARNESS_SET:
        env.pop(name, None)
    old = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(INJECT_DIR) + (os.pathsep + old if old else "")
    # Where the injected sitecustomize finds reprolint if COMMAND runs another Python:
    # the package's own folder, never the one above it (a checkout, a venv's packages).
    env[renv.HOME] = str(Path(reprolint.__file__).resolve().parent)
    return env


# --------------------------------------------------------------------------- running


@dataclass
class Finished:
    """How one run of the command ended."""

    returncode: Optional[int] = None
    seconds: float = 0.0
    timed_out: bool = False
    start_error: Optional[str] = None  # the command could not be started


TickFn = Callable[[float], None]  # called about twice a second with the elapsed seconds


def stop_group(pgid: int, proc: Optional["subprocess.Popen[bytes]"] = None, first: int = signal.SIGTERM,
               token: Optional[str] = None) -> None:
    """Stop every process of the run: `first`, then SIGKILL after a grace period.

    The run's process group, and (on Linux) every process that carries the run's
    `token` in its environment: a launcher may start its workers in sessions of their
    own (torchrun does), out of the group's reach, and they outlive it when they hang.
    """
    for sig in (first, signal.SIGKILL):
        targets = _running(pgid, token)
        if not targets and (proc is None or proc.poll() is not None):
            break
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, sig)
        for pid in targets:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
        deadline = time.monotonic() + _GRACE
        while time.monotonic() < deadline:
            if proc is not None and proc.poll() is None:
                time.sleep(0.05)
                continue
            if not _running(pgid, token):
                break
            time.sleep(0.05)
        else:
            continue
        break
    if proc is not None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=_GRACE)


def _running(pgid: int, token: Optional[str]) -> List[int]:
    """Processes of the run still running (zombies do not count): members of the
    group, and processes whose environment holds the run's token."""
    proc_dir = Path("/proc")
    if not proc_dir.is_dir():  # not Linux: the group is all we can see
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError):
            return []
        return [pgid]
    marker = f"{renv.RUN_TOKEN}={token}".encode() if token else None
    found = []
    for entry in proc_dir.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) < 3 or fields[0] == "Z":
            continue
        if fields[2] == str(pgid):
            found.append(int(entry.name))
            continue
        if marker is not None:
            try:
                environ = (entry / "environ").read_bytes()
            except OSError:
                continue
            if b"\0" + marker + b"\0" in b"\0" + environ + b"\0":
                found.append(int(entry.name))
    return found


def _pump(source: IO[bytes], sink: IO[bytes], echo: IO[str]) -> None:
    """Copy the program's output into its file and onto the terminal (--show-output)."""
    for chunk in iter(lambda: source.read1(65536) if hasattr(source, "read1") else source.read(65536), b""):  # type: ignore[attr-defined]
        sink.write(chunk)
        sink.flush()
        with contextlib.suppress(Exception):
            echo.write(chunk.decode("utf-8", errors="replace"))
            echo.flush()
    source.close()


def run(
    command: Sequence[str],
    stdout_path: Path,
    stderr_path: Path,
    env: Dict[str, str],
    timeout: Optional[float] = None,
    *,
    on_tick: Optional[TickFn] = None,
    show_output: bool = False,
) -> Finished:
    """Run `command` in its own process group, its output into the two files.

    The group is stopped whatever happens. Ctrl-C (and SIGTERM/SIGHUP under
    `signals_interrupt()`) stops it with SIGINT first, then re-raises with the partial
    result attached as `exc.finished`.
    """
    finished = Finished()
    token = secrets.token_hex(8)
    env = {**env, renv.RUN_TOKEN: token}
    start = time.perf_counter()
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        pipe = subprocess.PIPE if show_output else None
        try:
            proc = subprocess.Popen(
                list(command), stdout=pipe or out, stderr=pipe or err, env=env,
                start_new_session=True,
            )
        except OSError as exc:
            err.write(f"reprolint: cannot run {command[0]!r}: {exc}\n".encode())
            finished.returncode = 127
            finished.start_error = str(exc)
            return finished
        pumps = []
        if show_output:
            assert proc.stdout is not None and proc.stderr is not None
            # Both onto reprolint's stderr: its stdout holds the report (JSON, maybe).
            for source, sink, echo in ((proc.stdout, out, sys.stderr), (proc.stderr, err, sys.stderr)):
                thread = threading.Thread(target=_pump, args=(source, sink, echo), daemon=True)
                thread.start()
                pumps.append(thread)
        first_signal = signal.SIGTERM
        try:
            finished.returncode = _wait(proc, timeout, start, on_tick)
        except subprocess.TimeoutExpired:
            finished.timed_out = True
        except KeyboardInterrupt as exc:
            # Its own session, so the terminal's Ctrl-C did not reach it: pass it on.
            first_signal = signal.SIGINT
            stop_group(proc.pid, proc, signal.SIGINT, token)
            finished.returncode = proc.returncode
            finished.seconds = time.perf_counter() - start
            exc.finished = finished  # type: ignore[attr-defined]
            raise
        finally:
            # Children that outlive the main process (DataLoader workers, a launcher's
            # ranks, anything it started in the background) go with it.
            stop_group(proc.pid, proc, first_signal, token)
            for thread in pumps:
                thread.join(timeout=_GRACE)
        if finished.timed_out:
            finished.returncode = proc.returncode
    finished.seconds = time.perf_counter() - start
    return finished


def _wait(proc: "subprocess.Popen[bytes]", timeout: Optional[float], start: float,
          on_tick: Optional[TickFn]) -> int:
    if on_tick is None:
        return proc.wait(timeout=timeout)
    while True:
        elapsed = time.perf_counter() - start
        if timeout is not None and elapsed >= timeout:
            raise subprocess.TimeoutExpired(proc.args, timeout)
        step = 0.5 if timeout is None else max(0.01, min(0.5, timeout - elapsed))
        try:
            return proc.wait(timeout=step)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(Exception):  # a progress line must never stop a run
                on_tick(time.perf_counter() - start)


@contextlib.contextmanager
def signals_interrupt() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise `Terminated` (a KeyboardInterrupt), so
    that they stop the runs by the same path as Ctrl-C. Main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: object) -> None:
        raise Terminated(signum)

    previous = {}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(ValueError, OSError):
            previous[sig] = signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, old in previous.items():
            with contextlib.suppress(ValueError, OSError):
                signal.signal(sig, old)


def tail(path: Path, lines: int = STDERR_TAIL_LINES) -> str:
    """The last `lines` lines of a file (at most its last 16 KiB), or "" if unreadable."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 16384))
            text = f.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])
