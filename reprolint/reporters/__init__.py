"""Reporters turn diagnostics into text, concise lines, JSON, GitHub annotations, SARIF."""

from __future__ import annotations

import json as _stdlib_json  # (the name `json` is this package's reporter module)
import re
from typing import Callable, Optional, TextIO

from reprolint.model import Diagnostic

__all__ = ["FORMATS", "Report", "dump_json", "render"]

# A name that is not valid UTF-8 reaches Python as lone surrogates (surrogateescape).
_SURROGATE = re.compile("[\ud800-\udfff]")


def dump_json(value: object, out: TextIO) -> None:
    """``value`` as indented JSON, non-ASCII text as it is, but lone surrogates (the
    bytes of a non-UTF-8 file name) written as ``\\udcff`` escapes: valid UTF-8 on any
    stream encoding, and ``json.loads`` gives back the same string (``os.fsencode``
    then the same bytes)."""
    text = _stdlib_json.dumps(value, indent=2, ensure_ascii=False)
    out.write(_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text))


class Report:
    """What a reporter needs besides the diagnostics."""

    def __init__(
        self,
        diagnostics: list[Diagnostic],
        files_checked: int,
        *,
        show_source: bool = False,
        statistics: bool = False,
        quiet: bool = False,
        exit_status: int = 0,
        skipped: tuple[str, ...] = (),
        sources: Optional[dict[str, str]] = None,
        tests_left_out: int = 0,
    ) -> None:
        self.diagnostics = diagnostics
        self.files_checked = files_checked
        self.show_source = show_source
        self.statistics = statistics
        self.quiet = quiet
        self.exit_status = exit_status
        self.skipped = list(skipped)  # files found but not analysed, each "path (why)"
        # Text checked that is not on disk as checked (stdin, `--stdin-filename`): path -> text.
        self.sources = dict(sources or {})
        self.tests_left_out = tests_left_out  # modules left out as tests (the summary says)


def _text(report: Report, out: TextIO) -> None:
    from reprolint.reporters.text import render_text

    render_text(report, out)


def _concise(report: Report, out: TextIO) -> None:
    from reprolint.reporters.text import render_concise

    render_concise(report, out)


def _json(report: Report, out: TextIO) -> None:
    from reprolint.reporters.json import render_json

    render_json(report, out)


def _github(report: Report, out: TextIO) -> None:
    from reprolint.reporters.github import render_github

    render_github(report, out)


def _sarif(report: Report, out: TextIO) -> None:
    from reprolint.reporters.sarif import render_sarif

    render_sarif(report, out)


FORMATS: dict[str, Callable[[Report, TextIO], None]] = {
    "text": _text,
    "concise": _concise,
    "json": _json,
    "github": _github,
    "sarif": _sarif,
}


def render(fmt: str, report: Report, out: TextIO) -> None:
    FORMATS[fmt](report, out)
