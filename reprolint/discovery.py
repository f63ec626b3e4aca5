"""Which files a run checks: walk the given paths, honour excludes, follow no link out.

Only regular files are ever read: a FIFO, socket or device named ``*.py`` would block a
read forever or never end (``/dev/zero``), so discovery skips them and
:func:`read_regular` refuses them even when one replaces a file after discovery.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional

from reprolint.config import Settings

__all__ = ["SOURCE_SUFFIXES", "NotRegularFile", "discover", "read_regular"]

SOURCE_SUFFIXES = (".py", ".ipynb")


def _display(path: Path) -> str:
    return path.as_posix()


def _is_virtualenv(directory: Path) -> bool:
    try:
        return (directory / "pyvenv.cfg").is_file()
    except OSError:  # a folder without search permission: the walk reports it
        return False


def _is_link(path: Path) -> bool:
    try:
        return path.is_symlink()
    except OSError:  # no search permission on its folder: treated as a link, not followed
        return True


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


class NotRegularFile(OSError):
    """A path that is not a regular file (a FIFO, socket, device or folder)."""


def read_regular(path: str) -> bytes:
    """The bytes of a regular file; :class:`NotRegularFile` for anything else.

    Opened without blocking, then checked on the open descriptor, so a FIFO that
    replaced the file after discovery cannot block the run.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile(0, "not a regular file (a FIFO, socket or device?)", path)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read()
    finally:
        os.close(fd)


def walk(top: Path, onerror: Callable[[OSError], None]) -> Iterator[tuple[str, list[str], list[str]]]:
    """``os.walk(top, followlinks=False)``, top-down, without recursion: a folder chain
    thousands deep (a committable path) cannot exhaust the stack (Python 3.11's
    ``os.walk`` recurses once per level). The caller may prune ``dirs`` in place."""
    stack = [os.fspath(top)]
    while stack:
        current = stack.pop()
        try:
            with os.scandir(current) as entries:
                listed = list(entries)
        except OSError as exc:
            onerror(exc)
            continue
        dirs, files = [], []
        for entry in listed:
            try:
                is_dir = entry.is_dir(follow_symlinks=False) or (entry.is_symlink() and entry.is_dir())
            except OSError:
                is_dir = False
            (dirs if is_dir else files).append(entry.name)
        yield current, dirs, files
        # Pushed in reverse so that folders are entered in the order left in ``dirs``.
        stack.extend(os.path.join(current, name) for name in reversed(dirs))


def discover(
    paths: Iterable[str], settings: Settings, problems: Optional[Callable[[str], None]] = None
) -> Iterator[str]:
    """Yield display paths (as given: relative stays relative) of files to check, sorted.

    A regular file named explicitly is always checked; inside directories, excluded
    names, virtualenvs, symlinks that lead out of the tree and files that are not
    regular are skipped. ``problems(message)`` hears of what could not be walked (a
    folder without permission) or was named but is not a file to read; the walk goes on.
    """
    report = problems or (lambda message: None)
    seen: set[str] = set()
    for raw in paths:
        top = Path(raw)
        try:
            mode: Optional[int] = top.stat().st_mode
        except OSError:
            mode = None  # missing or not reachable: named, so read it (and say why not)
        if mode is not None and not stat.S_ISDIR(mode) and not stat.S_ISREG(mode):
            report(f"{_display(top)}: not a regular file (a FIFO, socket or device?); skipped")
            continue
        if mode is None or not stat.S_ISDIR(mode):
            key = os.path.realpath(top)
            if key not in seen:
                seen.add(key)
                yield _display(top)
            continue
        root_real = os.path.realpath(top)
        found: list[str] = []

        def unreadable(error: OSError) -> None:
            where = _display(Path(error.filename)) if error.filename else _display(top)
            report(f"{where}: cannot list this folder ({error.strerror or error}); skipped")

        for current, dirs, files in walk(top, unreadable):
            here = Path(current)
            kept = []
            for name in sorted(dirs):
                child = here / name
                if settings.is_excluded(_display(child)) or _is_virtualenv(child):
                    continue
                if _is_link(child):
                    continue  # never follow a link (it may lead out of the tree or loop)
                kept.append(name)
            dirs[:] = kept
            for name in files:
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                child = here / name
                display = _display(child)
                if settings.is_excluded(display):
                    continue
                real = os.path.realpath(child)
                if _is_link(child) and not (real + os.sep).startswith(root_real + os.sep):
                    continue
                if not _is_regular(child):
                    report(f"{display}: not a regular file (a FIFO, socket or device?); skipped")
                    continue
                if real in seen:
                    continue
                seen.add(real)
                found.append(display)
        yield from sorted(found)
