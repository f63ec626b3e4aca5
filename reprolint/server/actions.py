"""Code actions and hovers built from findings: each fix as a quick fix, "fix all" for a
file, "suppress with `# noqa`", and the rule's explanation.

The edits are the fixes ``check --output-format json`` shows and ``fix`` applies
(:meth:`reprolint.server.project.Project.with_fixes`, ``fix_all``); nothing here plans
a fix of its own. Only the ``# noqa`` comment is written here.
"""

from __future__ import annotations

import io
import re
import tokenize
from typing import Mapping, Optional, Sequence

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from reprolint.model import Applicability, Diagnostic, Edit, Span
from reprolint.server.convert import Lines, Uri, diagnostic_to_lsp, edit_to_lsp, span_to_range

__all__ = [
    "FIX_ALL_KIND",
    "contains",
    "fix_all_edit",
    "fixable",
    "hover_markdown",
    "noqa_action",
    "noqa_edit",
    "overlaps",
    "quick_fix",
    "shown",
    "shown_range",
    "whole_file_edit",
]

FIX_ALL_KIND = "source.fixAll.reprolint"
_UNSAFE_NOTE = "unsafe: changes the random stream or the numbers"
_NOQA = re.compile(r"#\s*noqa(?P<colon>:\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.I)


def contains(outer: types.Range, position: types.Position) -> bool:
    """Whether ``position`` lies in ``outer`` (its end included, where a cursor sits)."""
    at = (position.line, position.character)
    return (outer.start.line, outer.start.character) <= at <= (outer.end.line, outer.end.character)


def overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and (
        b.start.line, b.start.character) <= (a.end.line, a.end.character)


def fixable(d: Diagnostic, unsafe: bool) -> bool:
    """Whether ``fix`` would apply the finding's fix (safe ones; unsafe ones when asked)."""
    if d.fix is None or d.fix.applicability is Applicability.DISPLAY_ONLY:
        return False
    return unsafe or d.fix.applicability is Applicability.SAFE


def quick_fix(
    d: Diagnostic, shown: types.Diagnostic, lines: Lines, uri: Uri, codec: PositionCodec
) -> Optional[types.CodeAction]:
    """The finding's own fix, with the edits ``check`` gives it (in every file it changes)."""
    fix = d.fix
    if fix is None or fix.applicability is Applicability.DISPLAY_ONLY:
        return None
    file_changes = getattr(fix, "file_changes", None)
    places: Sequence[tuple[str, Optional[int], Sequence[Edit]]]
    if file_changes is not None and d.cell is None:
        places = [(path, None, edits) for path, edits in file_changes]
        if any(path.endswith(".ipynb") for path, _, _ in places):
            # Its edits are in a notebook's joined program (an entry point notebook
            # seeding for a module): `fix` maps them back to cells, an edit here cannot.
            return None
    else:  # a notebook finding: its fix's edits are in its own cell
        places = [(d.path, d.cell, fix.edits)] if fix.edits else []
    changes: dict[str, list[types.TextEdit]] = {}
    for path, cell, edits in places:
        text = lines(path, cell)
        changes.setdefault(uri(path, cell), []).extend(edit_to_lsp(e, text, codec) for e in edits)
    if not changes:
        return None
    safe = fix.applicability is Applicability.SAFE
    title = f"reprolint ({d.code}): {fix.title}" + ("" if safe else f" ({_UNSAFE_NOTE})")
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[shown],
        is_preferred=safe,
        edit=types.WorkspaceEdit(changes=changes),
    )


def _string_interiors(text: str) -> set[int]:
    """1-based lines a comment cannot end: inside a string that goes on to the next line."""
    inside: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.start[0] < token.end[0] and token.type not in (tokenize.NL, tokenize.NEWLINE):
                inside.update(range(token.start[0], token.end[0]))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass  # the tokens read so far still count
    return inside


def noqa_edit(d: Diagnostic, lines: Sequence[str]) -> Optional[Edit]:
    """The edit that adds ``# noqa: CODE`` where the check reads it: the finding's first
    line, or its last when the first ends inside a multi-line string."""
    blocked = _string_interiors("".join(lines))
    for number in dict.fromkeys((d.span.start_line, d.span.end_line)):
        if number in blocked or not 0 < number <= len(lines):
            continue
        line = lines[number - 1]
        body = line.rstrip("\r\n")
        match = _NOQA.search(body)
        if match is not None and match.group("codes"):
            end = match.end("codes") + 1
            return Edit(Span(number, end, number, end), f", {d.code}")
        if match is not None:
            return None  # a bare `# noqa` already silences every code
        end = len(body.rstrip()) + 1
        return Edit(Span(number, end, number, len(body) + 1), f"  # noqa: {d.code}")
    return None


def noqa_action(
    d: Diagnostic, shown: types.Diagnostic, lines: Lines, uri: Uri, codec: PositionCodec
) -> Optional[types.CodeAction]:
    """"Suppress with `# noqa: RPLxxx`" for a finding (not for a file that does not parse)."""
    if d.code == "RPL900":
        return None
    text = lines(d.path, d.cell)
    edit = noqa_edit(d, text)
    if edit is None:
        return None
    return types.CodeAction(
        title=f"reprolint ({d.code}): Suppress with `# noqa: {d.code}`",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[shown],
        edit=types.WorkspaceEdit(changes={uri(d.path, d.cell): [edit_to_lsp(edit, text, codec)]}),
    )


def whole_file_edit(old: Sequence[str], new_text: str) -> types.TextEdit:
    """Replace a file's whole text (what "fix all" does, as `fix --write` writes it)."""
    end = types.Position(line=len(old), character=0)
    return types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=end), new_text=new_text)


def fix_all_edit(changed: Mapping[str, str], lines: Lines, uri: Uri) -> types.WorkspaceEdit:
    return types.WorkspaceEdit(
        changes={uri(path, None): [whole_file_edit(lines(path, None), text)] for path, text in changed.items()}
    )


def hover_markdown(found: Sequence[Diagnostic]) -> str:
    """Each finding's message, then its rule's documentation (as `reprolint explain`)."""
    from reprolint.checks.registry import get_rule
    from reprolint.docs import rule_markdown

    parts = []
    for d in found:
        rule = get_rule(d.code)
        explained = rule_markdown(rule) if rule is not None else ""
        parts.append(f"**{d.code}** {d.message}\n\n{explained}".rstrip() + "\n")
    return "\n---\n\n".join(parts)


def shown_range(d: Diagnostic, lines: Lines, codec: PositionCodec) -> types.Range:
    return span_to_range(d.span, lines(d.path, d.cell), codec)


def shown(d: Diagnostic, lines: Lines, uri: Uri, codec: PositionCodec) -> types.Diagnostic:
    return diagnostic_to_lsp(d, lines, uri, codec)
