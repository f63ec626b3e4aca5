"""A progress bar for long checks: rich, on stderr, only where a person is watching.

It shows when more than :data:`PROGRESS_THRESHOLD` files are checked and stderr is a
terminal; never in a pipe, a file or a CI log (the ``CI`` variable, which GitHub
Actions, GitLab and most CI services set). It is transient: it disappears when the check
ends, so what stays on screen is the report. Colour follows rich, which honours
``NO_COLOR`` and ``FORCE_COLOR``.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, Mapping, Optional, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

__all__ = ["PROGRESS_THRESHOLD", "FileProgress", "wants_progress"]

PROGRESS_THRESHOLD = 200

_FALSE = {"", "0", "false", "no", "off"}


def _in_ci(environ: Mapping[str, str]) -> bool:
    return environ.get("CI", "").strip().lower() not in _FALSE


def wants_progress(
    total: int,
    stream: TextIO,
    environ: Optional[Mapping[str, str]] = None,
    threshold: int = PROGRESS_THRESHOLD,
) -> bool:
    """Whether a check of ``total`` files should draw a bar on ``stream``."""
    environ = os.environ if environ is None else environ
    if total <= threshold or _in_ci(environ):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):  # a closed stream
        return False


class FileProgress:
    """The ``progress(done, total)`` callback of :func:`reprolint.api.check_paths`.

    Starts a bar on the first call if :func:`wants_progress` says so; otherwise every
    call is a no-op. Use it as a context manager so the bar is always taken down.
    """

    def __init__(
        self,
        stream: Optional[TextIO] = None,
        environ: Optional[Mapping[str, str]] = None,
        threshold: int = PROGRESS_THRESHOLD,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.environ = os.environ if environ is None else environ
        self.threshold = threshold
        self._decided = False
        self._progress: Optional["Progress"] = None
        self._task: Optional["TaskID"] = None

    @property
    def shown(self) -> bool:
        return self._progress is not None

    def _start(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
        from rich.progress import TimeElapsedColumn

        console = Console(file=self.stream, highlight=False)
        self._progress = Progress(
            TextColumn("Checking"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("files"),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        )
        self._progress.start()
        self._task = self._progress.add_task("check", total=total)

    def __call__(self, done: int, total: int) -> None:
        if not self._decided:
            self._decided = True
            if wants_progress(total, self.stream, self.environ, self.threshold):
                self._start(total)
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, completed=done, total=total)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def __enter__(self) -> "FileProgress":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
