"""Keep reprolint's own output from issuing GitHub Actions workflow commands.

The Actions runner reads every line a step prints, on stdout and stderr alike, and runs
the ones that look like workflow commands: ``::error ...::``, ``::stop-commands::TOKEN``
(which hides every later annotation), ``::add-mask::``, and the older ``##[command]``
form. A line may start with white space, and a carriage return ends a line as a
newline does. A file name or a configuration value that holds a line break can
therefore forge a command in the middle of a warning.

Under ``--output-format github`` both streams go through :class:`WorkflowSafeStream`:
annotations the reporter made (already escaped) pass through :meth:`write_command`,
and every other line is plain text made unable to start a command (:func:`plain_line`).
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
from typing import Iterator, TextIO

__all__ = ["WorkflowSafeStream", "guarded_streams", "is_command_line", "plain_line"]

# What the runner takes as the start of a command, after white space it trims.
_COMMAND_START = re.compile(r"^\s*(::|##\[)")
# Line breaks for the runner's line reader, and other controls kept out of the log.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u0085\u2028\u2029\ud800-\udfff]")
_WELL_FORMED = re.compile(r"^::(error|warning|notice)( [^:\r\n]*)?::[^\r\n]*$")


def _escape(match: "re.Match[str]") -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte of a non-UTF-8 name
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 256 else f"\\u{code:04x}"


def is_command_line(line: str) -> bool:
    """Whether the runner would take ``line`` as a workflow command."""
    return bool(_COMMAND_START.match(line))


def plain_line(line: str) -> str:
    """``line`` (no newline in it) as text that cannot start a workflow command: control
    characters (a carriage return ends a line for the runner) shown as ``\\xNN``, and a
    line that would read as a command marked with a leading ``> ``."""
    line = _CONTROLS.sub(_escape, line)
    return "> " + line if is_command_line(line) else line


class WorkflowSafeStream(io.TextIOBase):
    """A text stream that writes only whole, safe lines to ``inner``.

    Text is held until its line ends (a command split over two writes is still one line
    for the runner), then written through :func:`plain_line`. :meth:`write_command`
    writes one annotation as it is, after checking that it is one well-formed command.
    """

    def __init__(self, inner: TextIO) -> None:
        super().__init__()
        self.inner = inner
        self._pending = ""

    def write(self, text: str) -> int:  # type: ignore[override]
        """Write ``text``: every complete line made plain, the rest held."""
        lines = (self._pending + text).split("\n")
        self._pending = lines.pop()
        if lines:
            self.inner.write("".join(plain_line(line) + "\n" for line in lines))
        return len(text)

    def write_command(self, line: str) -> None:
        """Write one workflow command the reporter built (escaped fields), or, should it
        not be one well-formed command line, that line as plain text."""
        self._end_line()
        if _WELL_FORMED.match(line) and not _CONTROLS.search(line):
            self.inner.write(line + "\n")
        else:
            self.write(line + "\n")

    def _end_line(self) -> None:
        if self._pending:
            pending, self._pending = self._pending, ""
            self.inner.write(plain_line(pending) + "\n")

    def flush(self) -> None:
        """Flush ``inner`` (a line not yet ended stays held: it could still become a
        command)."""
        self.inner.flush()

    def close_line(self) -> None:
        """End the stream: a last line without a newline is written, made plain."""
        self._end_line()
        self.inner.flush()

    def isatty(self) -> bool:
        return self.inner.isatty()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.inner, "encoding", "utf-8")

    @property
    def errors(self) -> str:  # type: ignore[override]
        return getattr(self.inner, "errors", "strict")


@contextlib.contextmanager
def guarded_streams(active: bool = True) -> Iterator[None]:
    """``sys.stdout`` and ``sys.stderr`` as :class:`WorkflowSafeStream` for the block
    (nothing changes when not ``active``); restored, and held text written, after."""
    if not active:
        yield
        return
    saved = sys.stdout, sys.stderr
    out, err = WorkflowSafeStream(saved[0]), WorkflowSafeStream(saved[1])
    sys.stdout, sys.stderr = out, err  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
        for stream in (out, err):
            with contextlib.suppress(Exception):
                stream.close_line()
