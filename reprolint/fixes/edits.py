"""Edits on source text: line hunks between two texts, applying non-overlapping edits,
and the check that a fixed text still parses."""

from __future__ import annotations

import ast
import bisect
import difflib
import re
from typing import Iterable, Sequence

import libcst as cst

from reprolint.model import Edit, Span

__all__ = ["FixError", "apply_edits", "check_parses", "diff_edits", "overlaps", "split_lines"]


class FixError(Exception):
    """A fix that could not be made; the message says why."""


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def split_lines(text: str) -> list[str]:
    """Lines with their endings, split only at \\n, \\r\\n and \\r (as editors do)."""
    return _LINE.findall(text) if text else []


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for line in split_lines(text):
        starts.append(starts[-1] + len(line))
    return starts


def _position(starts: list[int], offset: int) -> tuple[int, int]:
    index = bisect.bisect_right(starts, offset) - 1
    index = min(index, len(starts) - 1)
    return index + 1, offset - starts[index] + 1


def line_opcodes(a: Sequence[str], b: Sequence[str]) -> list[tuple[str, int, int, int, int]]:
    """``difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()``, with the
    lines common to both ends set aside first: a fix changes a few places, and the
    matcher is quadratic on long runs of equal lines (a notebook of 100,000 one-line
    cells), so only the part between the first and the last change is matched."""
    limit = min(len(a), len(b))
    head = 0
    while head < limit and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < limit - head and a[len(a) - 1 - tail] == b[len(b) - 1 - tail]:
        tail += 1
    middle = difflib.SequenceMatcher(None, a[head:len(a) - tail], b[head:len(b) - tail], autojunk=False)
    codes = [("equal", 0, head, 0, head)] if head else []
    for tag, i1, i2, j1, j2 in middle.get_opcodes():
        if tag == "equal" and codes and codes[-1][0] == "equal":
            continue  # (an empty middle reports no opcode; a non-empty one never starts equal)
        codes.append((tag, i1 + head, i2 + head, j1 + head, j2 + head))
    if tail:
        codes.append(("equal", len(a) - tail, len(a), len(b) - tail, len(b)))
    return codes


def diff_edits(old: str, new: str) -> tuple[Edit, ...]:
    """The line hunks that turn ``old`` into ``new``, as edits on ``old``."""
    a, b = split_lines(old), split_lines(new)
    starts = _line_starts(old)
    # libcst drops a form feed that starts a line; such a line counts as unchanged, so
    # the form feed stays.
    opcodes = line_opcodes([line.lstrip("\x0c") for line in a], [line.lstrip("\x0c") for line in b])
    edits = []
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            continue
        start = _position(starts, starts[i1])
        end = _position(starts, starts[i2])
        edits.append(Edit(Span(*start, *end), "".join(b[j1:j2])))
    return tuple(edits)


def _offset(starts: list[int], span_line: int, col: int) -> int:
    if span_line - 1 >= len(starts):
        return starts[-1]
    return starts[span_line - 1] + col - 1


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with non-overlapping ``edits`` applied (spans refer to ``text``)."""
    starts = _line_starts(text)
    ranges = sorted(
        (
            _offset(starts, e.span.start_line, e.span.start_col),
            _offset(starts, e.span.end_line, e.span.end_col),
            e.content,
        )
        for e in edits
    )
    out, last = [], 0
    for start, end, content in ranges:
        if start < last:
            raise ValueError("overlapping edits")
        out.append(text[last:start])
        out.append(content)
        last = end
    out.append(text[last:])
    return "".join(out)


def _ranges(edits: Sequence[Edit]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    return [
        ((e.span.start_line, e.span.start_col), (e.span.end_line, e.span.end_col)) for e in edits
    ]


def overlaps(a: Sequence[Edit], b: Sequence[Edit]) -> bool:
    for s1, e1 in _ranges(a):
        for s2, e2 in _ranges(b):
            # Touching insertions at the same point conflict too: their order is unknown.
            if s1 < e2 and s2 < e1 or s1 == s2 or (s1 == e1 and s2 <= s1 <= e2) or (
                s2 == e2 and s1 <= s2 <= e1
            ):
                return True
    return False


def check_parses(code: str, original: str, path: str, libcst_too: bool = True) -> None:
    """Raise FixError when ``code`` does not parse (or no longer compiles).

    CPython's parser (fast) always checks; libcst's too unless ``libcst_too`` is off
    (the caller parses the result with libcst anyway).
    """
    if libcst_too:
        try:
            cst.parse_module(code)
        except Exception as exc:  # noqa: BLE001 - any parser failure means: do not write
            raise FixError(f"the fixed code would not parse ({type(exc).__name__})") from exc
    try:
        compile(original, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return  # newer syntax than this Python knows: libcst's parse is the check
    try:
        compile(code, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        raise FixError(f"the fixed code would not compile: {exc}") from exc
