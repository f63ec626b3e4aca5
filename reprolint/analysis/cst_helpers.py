"""Small libcst helpers shared by the fact pass and the fix codemods."""

from __future__ import annotations

import dataclasses
from typing import Optional

import libcst as cst

__all__ = ["child_fields", "find_argument"]

# Fields that hold only whitespace, brackets and punctuation: never walked.
_SKIPPED_FIELDS = frozenset({
    "lpar", "rpar", "leading_lines", "lines_after_decorators", "header", "footer",
    "comma", "semicolon", "equal", "colon", "lbracket", "rbracket", "lbrace", "rbrace",
    "dot", "trailing_whitespace", "newline", "first_line", "empty_lines", "operator",
    "asynchronous", "indent", "star_tok", "walrus",
})
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def child_fields(kind: type) -> tuple[str, ...]:
    """The dataclass fields of a node type that can hold code (not whitespace), cached.

    Walking these directly is several times faster than libcst's visitor protocol,
    which rebuilds every node it visits.
    """
    fields = _CHILD_FIELDS.get(kind)
    if fields is None:
        fields = tuple(
            f.name for f in dataclasses.fields(kind)
            if f.name not in _SKIPPED_FIELDS and not f.name.startswith("whitespace")
        )
        _CHILD_FIELDS[kind] = fields
    return fields


def find_argument(call: cst.Call, keyword: Optional[str], position: Optional[int]) -> Optional[cst.Arg]:
    """The argument passed as ``keyword=`` or at ``position`` (positional only)."""
    if keyword is not None:
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == keyword:
                return arg
    if position is not None:
        positional = [a for a in call.args if a.keyword is None and not a.star]
        if len(positional) > position:
            return positional[position]
    return None
