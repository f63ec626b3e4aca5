"""Small libcst helpers shared by the fact pass and the fix codemods."""

from __future__ import annotations

import dataclasses
import inspect
import re
from typing import Any, Optional, Sequence

import libcst as cst

from reprolint.analysis.values import UNKNOWN

__all__ = ["child_fields", "children", "find_argument", "is_node", "literal"]

# Fields that hold only whitespace, brackets and punctuation: never walked.
_SKIPPED_FIELDS = frozenset({
    "lpar", "rpar", "leading_lines", "lines_after_decorators", "header", "footer",
    "comma", "semicolon", "equal", "colon", "lbracket", "rbracket", "lbrace", "rbrace",
    "dot", "trailing_whitespace", "newline", "first_line", "empty_lines", "operator",
    "asynchronous", "indent", "star_tok", "walrus",
})
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
# The fields each node type's ``_visit_and_replace_children`` visits, in its order (None:
# its source could not be read, use libcst's own ``children``).
_VISIT_ORDER: dict[type, Optional[tuple[str, ...]]] = {}
_VISITED_FIELD = re.compile(r'visit_\w+\(\s*self,\s*"(\w+)"')


_IS_NODE: dict[type, bool] = {}

# libcst's concrete node classes have no subclasses, so for a node of a parsed tree
# ``type(node) is cst.Name`` answers what ``isinstance(node, cst.Name)`` does. The hot
# paths of the fact pass test the type: libcst's classes have an abstract-base-class
# metaclass, whose isinstance is several times slower when the answer is no (most of the
# time). The classes tested so; tests/test_cst_helpers.py checks they stay subclass-free.
CONCRETE = (
    cst.Attribute, cst.BinaryOperation, cst.Call, cst.ConcatenatedString, cst.FormattedString,
    cst.GeneratorExp, cst.List, cst.ListComp, cst.Name, cst.Set, cst.SetComp, cst.SimpleString,
    cst.Subscript, cst.Tuple,
)


def is_node(value: object) -> bool:
    """``isinstance(value, cst.CSTNode)``, memoised by type. CSTNode is an abstract base
    class, whose isinstance test is several times slower than a dict lookup, and the
    analysis walks ask it of every field of every node (most are strings, sentinels and
    whitespace, the slow negative case)."""
    kind = type(value)
    found = _IS_NODE.get(kind)
    if found is None:
        found = _IS_NODE[kind] = issubclass(kind, cst.CSTNode)
    return found


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


def _visit_order(kind: type) -> Optional[tuple[str, ...]]:
    if kind in _VISIT_ORDER:
        return _VISIT_ORDER[kind]
    fields = {f.name for f in dataclasses.fields(kind)}
    try:
        source = inspect.getsource(kind._visit_and_replace_children)  # type: ignore[attr-defined]
    except (OSError, TypeError, AttributeError):
        order = None
    else:
        order = tuple(dict.fromkeys(n for n in _VISITED_FIELD.findall(source) if n in fields))
    _VISIT_ORDER[kind] = order
    return order


def children(node: cst.CSTNode) -> Sequence[cst.CSTNode]:
    """``node.children`` (the same nodes, in the same source order) without libcst's
    visitor protocol, which rebuilds the node to list them and is several times slower.
    The field order is read once per node type from libcst's own visiting code.

    The order walks of the fact pass call this for every node they pass, so the type
    memos of :func:`_visit_order` and :func:`is_node` are read inline here."""
    kind = type(node)
    order = _VISIT_ORDER[kind] if kind in _VISIT_ORDER else _visit_order(kind)
    if order is None:
        return node.children
    known = _IS_NODE.get
    out: list[cst.CSTNode] = []
    for name in order:
        value = getattr(node, name)
        value_type = type(value)
        if value_type is tuple or value_type is list:
            for item in value:
                found = known(type(item))
                if found or (found is None and is_node(item)):
                    out.append(item)
        else:
            found = known(value_type)
            if found or (found is None and is_node(value)):
                out.append(value)
    return out


def literal(node: Optional[cst.BaseExpression]) -> Any:
    """The value of a literal expression, or UNKNOWN."""
    if node is None:
        return UNKNOWN
    if isinstance(node, cst.Name):
        return {"None": None, "True": True, "False": False}.get(node.value, UNKNOWN)
    if isinstance(node, cst.Integer):
        try:
            return int(node.value.replace("_", ""), 0)
        except ValueError:
            return UNKNOWN
    if isinstance(node, cst.Float):
        try:
            return float(node.value.replace("_", ""))
        except ValueError:
            return UNKNOWN
    if isinstance(node, cst.SimpleString):
        try:
            value = node.evaluated_value
        except Exception:  # noqa: BLE001 - odd prefixes: just unknown
            return UNKNOWN
        return value if isinstance(value, str) else UNKNOWN
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = literal(node.expression)
        return -inner if isinstance(inner, (int, float)) and not isinstance(inner, bool) else UNKNOWN
    return UNKNOWN

