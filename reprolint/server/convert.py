"""reprolint's data as LSP types: spans as ranges, diagnostics, related locations, edits.

reprolint's spans are 1-based lines and columns counted in code points, end exclusive
(:class:`reprolint.model.Span`); LSP positions are 0-based, with the column counted in
the position encoding the client and server agreed on (UTF-16 unless the client offers
another). Every conversion therefore takes the text of the lines it converts, through a
:class:`Lines` lookup (the open buffer, else the file on disk).
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from reprolint.model import Diagnostic, Edit, Related, Severity, Span

__all__ = [
    "DOCS_URL",
    "SOURCE",
    "Lines",
    "Uri",
    "diagnostic_to_lsp",
    "docs_href",
    "edit_to_lsp",
    "span_to_range",
]

SOURCE = "reprolint"
# Each rule's documentation (what `reprolint explain CODE` prints), as a page section.
DOCS_URL = "https://github.com/reprolint/reprolint/blob/main/docs/guide.md"

# (path, cell or None) -> the lines of that file or notebook cell (empty when unknown).
Lines = Callable[[str, Optional[int]], Sequence[str]]
# (path, cell or None) -> the URI the client knows that file or cell by.
Uri = Callable[[str, Optional[int]], str]

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}


def _position(lines: Sequence[str], line: int, column: int, codec: PositionCodec) -> types.Position:
    """A 1-based code-point position as an LSP position in the client's encoding."""
    row = max(line - 1, 0)
    char = max(column - 1, 0)
    if row < len(lines):
        text = lines[row].rstrip("\r\n")
        return types.Position(line=row, character=codec.client_num_units(text[:char]))
    return types.Position(line=row, character=char)  # past the known text: as it is


def span_to_range(span: Span, lines: Sequence[str], codec: PositionCodec) -> types.Range:
    """A reprolint span as an LSP range (an empty span stays empty)."""
    start = _position(lines, span.start_line, span.start_col, codec)
    end = _position(lines, span.end_line, span.end_col, codec)
    if (end.line, end.character) < (start.line, start.character):
        end = start
    return types.Range(start=start, end=end)


def docs_href(code: str, name: str) -> str:
    """The rule's section of the guideline (GitHub's heading anchors)."""
    return f"{DOCS_URL}#{code.lower()}-{name}"


def _related(
    related: Related, lines: Lines, uri: Uri, codec: PositionCodec
) -> types.DiagnosticRelatedInformation:
    return types.DiagnosticRelatedInformation(
        location=types.Location(
            uri=uri(related.path, related.cell),
            range=span_to_range(related.span, lines(related.path, related.cell), codec),
        ),
        message=related.message,
    )


def diagnostic_to_lsp(
    d: Diagnostic, lines: Lines, uri: Uri, codec: PositionCodec
) -> types.Diagnostic:
    """One finding as the client shows it: code, rule name and docs link, message,
    severity, and the finding's related locations."""
    return types.Diagnostic(
        range=span_to_range(d.span, lines(d.path, d.cell), codec),
        message=d.message,
        severity=_SEVERITY.get(d.severity, types.DiagnosticSeverity.Warning),
        code=d.code,
        code_description=types.CodeDescription(href=docs_href(d.code, d.name)),
        source=SOURCE,
        related_information=[_related(r, lines, uri, codec) for r in d.related] or None,
        data={"code": d.code, "name": d.name},
    )


def edit_to_lsp(edit: Edit, lines: Sequence[str], codec: PositionCodec) -> types.TextEdit:
    """A fix's edit as an LSP text edit."""
    return types.TextEdit(range=span_to_range(edit.span, lines, codec), new_text=edit.content)
