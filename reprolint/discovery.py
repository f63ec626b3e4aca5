"""Which files a run checks: walk the given paths, honour excludes, follow no link out."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Iterator

from reprolint.config import Settings

__all__ = ["SOURCE_SUFFIXES", "discover"]

SOURCE_SUFFIXES = (".py", ".ipynb")


def _display(path: Path) -> str:
    return path.as_posix()


def _is_virtualenv(directory: Path) -> bool:
    return (directory / "pyvenv.cfg").is_file()


def discover(paths: Iterable[str], settings: Settings) -> Iterator[str]:
    """Yield display paths (as given: relative stays relative) of files to check, sorted.

    A file named explicitly is always checked; inside directories, excluded names,
    virtualenvs and symlinks that lead out of the tree are skipped.
    """
    seen: set[str] = set()
    for raw in paths:
        top = Path(raw)
        if top.is_file() or not top.exists():
            key = os.path.realpath(top)
            if key not in seen:
                seen.add(key)
                yield _display(top)
            continue
        root_real = os.path.realpath(top)
        found: list[str] = []
        for current, dirs, files in os.walk(top, followlinks=False):
            here = Path(current)
            kept = []
            for name in sorted(dirs):
                child = here / name
                if settings.is_excluded(_display(child)) or _is_virtualenv(child):
                    continue
                if child.is_symlink():
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
                if child.is_symlink() and not (real + os.sep).startswith(root_real + os.sep):
                    continue
                if real in seen:
                    continue
                seen.add(real)
                found.append(display)
        yield from sorted(found)
