"""Reporters turn diagnostics into text, concise lines, JSON, GitHub annotations, SARIF."""

from __future__ import annotations

from typing import Callable, TextIO

from reprolint.model import Diagnostic

__all__ = ["FORMATS", "Report", "render"]


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
        tests_left_out: int = 0,
    ) -> None:
        self.diagnostics = diagnostics
        self.files_checked = files_checked
        self.show_source = show_source
        self.statistics = statistics
        self.quiet = quiet
        self.exit_status = exit_status
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
