"""``--output-format github``: one GitHub Actions workflow command per finding.

GitHub turns ``::warning file=...,line=...::message`` lines printed by a step into
annotations on the pull request. Paths must be relative to the repository root, which is
the working directory of a workflow step, so paths are made relative to the current
directory. Escaping follows ``@actions/core``: in the message ``%``, ``\\r`` and ``\\n``;
in properties also ``:`` and ``,``.

A notebook finding has cell-relative lines; it is annotated on the line of the ``.ipynb``
file that stores that cell line (no columns: they differ inside a JSON string), and its
cell, line and column lead the message (``cell 3:2:5: ...``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from reprolint.model import Diagnostic, Severity

if TYPE_CHECKING:
    from reprolint.reporters import Report

__all__ = ["escape_data", "escape_property", "github_line", "render_github"]

_COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


_OTHER_CONTROLS = re.compile(r"[\x00-\x09\x0b\x0c\x0e-\x1f\x7f]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_data(value: str) -> str:
    """Escape a workflow command's message (after the ``::``); other control characters
    (a terminal escape in a file name) are written as ``%XX`` too, shown as such."""
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    value = _OTHER_CONTROLS.sub(lambda m: f"%{ord(m.group()):02X}", value)
    # A byte of a non-UTF-8 name (a lone surrogate): its value, as the escapes above.
    return _SURROGATE.sub(lambda m: f"%{ord(m.group()) & 0xFF:02X}", value)


def escape_property(value: str) -> str:
    """Escape a workflow command property value (``file=``, ``title=``)."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def relative_path(path: str, cwd: str | None = None) -> str:
    """``path`` relative to ``cwd`` in POSIX form; paths outside it stay as given."""
    if path.startswith("<"):  # <stdin> and friends
        return path
    base = os.path.realpath(cwd or os.getcwd())
    full = os.path.realpath(path)
    try:
        rel = os.path.relpath(full, base)
    except ValueError:  # another drive on Windows
        return Path(path).as_posix()
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return Path(path).as_posix()
    return Path(rel).as_posix()


def github_line(d: Diagnostic, cwd: str | None = None) -> str:
    """The workflow command for one diagnostic."""
    props = [f"file={escape_property(relative_path(d.path, cwd))}"]
    message = d.message
    if d.cell is None:
        span = d.span
        props += [
            f"line={span.start_line}",
            f"endLine={span.end_line}",
            f"col={span.start_col}",
            f"endColumn={span.end_col}",
        ]
    else:
        from reprolint.notebooks import file_line

        message = f"cell {d.cell}:{d.span.start_line}:{d.span.start_col}: {message}"
        start = file_line(d.path, d.cell, d.span.start_line)
        end = file_line(d.path, d.cell, d.span.end_line)
        if start is not None and end is not None:
            props += [f"line={start}", f"endLine={end}"]
    props.append(f"title={escape_property(f'{d.code} {d.name}')}")
    return f"::{_COMMANDS.get(d.severity, 'warning')} {','.join(props)}::{escape_data(message)}"


def render_github(report: "Report", out: TextIO) -> None:
    """One annotation per diagnostic; through ``out.write_command`` when ``out`` is a
    :class:`~reprolint.reporters.workflow.WorkflowSafeStream` (the command line's)."""
    cwd = os.getcwd()
    emit = getattr(out, "write_command", None)
    for d in report.diagnostics:
        line = github_line(d, cwd)
        if emit is not None:
            emit(line)
        else:
            out.write(line + "\n")
