"""Human output: ``path:line:col: CODE message``, colour on a TTY, and a summary."""

from __future__ import annotations

import re

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Optional, TextIO

from reprolint.model import Applicability, Diagnostic

if TYPE_CHECKING:
    from rich.console import Console

    from reprolint.reporters import Report


def printable(text: str) -> str:
    """``text`` with control and other non-printable characters escaped (``\\n``,
    ``\\x1b``, ``\\u2028``), so a file name cannot start a new line, move the cursor
    or colour the terminal: output a repository could use to spoof a report."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == "\t" else ascii(ch)[1:-1] for ch in text)


def location(d: Diagnostic) -> str:
    cell = f":cell {d.cell}" if d.cell is not None else ""
    return f"{printable(d.path)}{cell}:{d.span.start_line}:{d.span.start_col}"


def _console(out: TextIO) -> "Console":
    from rich.console import Console

    # rich honours NO_COLOR / FORCE_COLOR and only colours a terminal.
    return Console(file=out, highlight=False, soft_wrap=True, emoji=False)


def _file_text(path: str) -> Optional[str]:
    """A source file's text decoded as the analysis decoded it (BOM, PEP 263 cookie:
    a Latin-1 file shows no mojibake), or None."""
    from reprolint.api import SourceError, decode_source

    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    try:
        return decode_source(data)
    except SourceError:
        return data.decode("utf-8", errors="replace")


def _source_line(text: Optional[str], line: int) -> Optional[str]:
    if text is None:
        return None
    lines = re.split(r"\r\n|\r|\n", text)  # line ends as Python's tokenizer sees them
    return lines[line - 1] if 1 <= line <= len(lines) else None


def summary(diagnostics: list[Diagnostic], files_checked: Optional[int] = None, tests_left_out: int = 0) -> str:
    """The last line of a report; ``files_checked=0`` says that nothing was checked.
    ``tests_left_out``: modules not checked as tests, said on a line of its own."""
    line = _summary_line(diagnostics, files_checked)
    return line + ("\n" + tests_note(tests_left_out) if tests_left_out else "")


def tests_note(count: int) -> str:
    """The line saying how many modules were left out as tests and how to include them."""
    what, them = ("1 test module was", "it as a program") if count == 1 else (f"{count} test modules were", "them as programs")
    return f"{what} left out (`--include-tests` or `include-tests = true` checks {them})."


def _summary_line(diagnostics: list[Diagnostic], files_checked: Optional[int]) -> str:
    if not diagnostics and files_checked == 0:
        return "No files were checked: no Python file or notebook found in the given paths."
    if not diagnostics:
        return "All checks passed!"
    n = len(diagnostics)
    text = f"Found {n} problem{'s' if n != 1 else ''}"
    safe = sum(1 for d in diagnostics if d.fix and d.fix.applicability is Applicability.SAFE)
    unsafe = sum(1 for d in diagnostics if d.fix and d.fix.applicability is Applicability.UNSAFE)
    if safe and unsafe:
        text += (
            f" ({safe} fixable with `reprolint fix`, {safe + unsafe} with "
            "`reprolint fix --unsafe-fixes`)"
        )
    elif safe:
        text += f" ({safe} fixable with `reprolint fix`)"
    elif unsafe:
        text += f" ({unsafe} fixable with `reprolint fix --unsafe-fixes`)"
    return text + "."


def skipped_line(skipped: list[str]) -> Optional[str]:
    """The summary's line naming the files found but not analysed (None: none were)."""
    if not skipped:
        return None
    n = len(skipped)
    return f"Skipped {n} file{'s' if n != 1 else ''}, not analysed: {printable(', '.join(skipped))}."


def statistics_lines(diagnostics: list[Diagnostic]) -> list[str]:
    counts = Counter((d.code, d.name) for d in diagnostics)
    width = max((len(str(c)) for c in counts.values()), default=1)
    return [
        f"{count:>{width}}  {code}  {name}"
        for (code, name), count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def render_text(report: "Report", out: TextIO) -> None:
    from rich.markup import escape

    console = _console(out)
    if report.statistics:
        for line in statistics_lines(report.diagnostics):
            console.print(escape(line))
        if not report.quiet:
            _print_summary(console, report)
        return
    texts: dict[str, Optional[str]] = {}  # path -> its text, read once
    for d in report.diagnostics:
        console.print(
            f"[bold]{escape(location(d))}:[/bold] [bold red]{d.code}[/bold red] {escape(printable(d.message))}"
        )
        if report.show_source and d.cell is None and (d.path in report.sources or Path(d.path).is_file()):
            if d.path not in texts:
                texts[d.path] = report.sources.get(d.path) or _file_text(d.path)
            line = _source_line(texts[d.path], d.span.start_line)
            if line is not None:
                width = (
                    d.span.end_col - d.span.start_col
                    if d.span.end_line == d.span.start_line
                    else len(line) - d.span.start_col + 1
                )
                console.print(f"  [blue]{d.span.start_line:>4} |[/blue] {escape(printable(line))}")
                console.print(
                    f"       [blue]|[/blue] {' ' * (d.span.start_col - 1)}[red]{'^' * max(width, 1)}[/red]"
                )
    if not report.quiet:
        _print_summary(console, report)


def _print_summary(console: "Console", report: "Report") -> None:
    from rich.markup import escape

    console.print(summary(report.diagnostics, report.files_checked, report.tests_left_out))
    line = skipped_line(report.skipped)
    if line is not None:
        console.print(escape(line))


def render_concise(report: "Report", out: TextIO) -> None:
    for d in report.diagnostics:
        out.write(f"{location(d)}: {d.code} {printable(d.message)}\n")
