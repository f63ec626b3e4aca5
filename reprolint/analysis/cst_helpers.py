"""Small libcst helpers shared by the fact pass and the fix codemods."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import re
from typing import Any, Iterator, Optional, Sequence

import libcst as cst

from reprolint.analysis.values import UNKNOWN, OptionRef

__all__ = [
    "attr_chain", "child_fields", "children", "cuda_literal", "descendants", "enclosing_function", "find_argument",
    "is_docstring", "is_future_import", "is_node", "literal", "literal_kwargs", "mentions_of", "self_attr",
    "string_literal", "strings_in", "target_names", "text_parts", "visit_order",
]

# Fields that hold only whitespace, brackets and punctuation: never walked.
_SKIPPED_FIELDS = frozenset({
    "lpar", "rpar", "leading_lines", "lines_after_decorators", "header", "footer",
    "comma", "semicolon", "equal", "colon", "lbracket", "rbracket", "lbrace", "rbrace",
    "dot", "trailing_whitespace", "newline", "first_line", "empty_lines", "operator",
    "asynchronous", "indent", "star_tok", "walrus",
})
CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
# The fields each node type's ``_visit_and_replace_children`` visits, in its order (None:
# its source could not be read, use libcst's own ``children``).
_VISIT_ORDER: dict[type, Optional[tuple[str, ...]]] = {}
_VISITED_FIELD = re.compile(r'visit_\w+\(\s*self,\s*"(\w+)"')


IS_NODE: dict[type, bool] = {}

# libcst's concrete node classes have no subclasses, so for a node of a parsed tree
# ``type(node) is cst.Name`` answers what ``isinstance(node, cst.Name)`` does. The hot
# paths of the fact pass test the type: libcst's classes have an abstract-base-class
# metaclass, whose isinstance is several times slower when the answer is no (most of the
# time). The classes tested so (by name: importing this module must not load libcst, see
# reprolint/_lazy.py); tests/test_cst_helpers.py checks they stay subclass-free.
CONCRETE = (
    "Attribute", "BinaryOperation", "Call", "ConcatenatedString", "For", "FormattedString",
    "GeneratorExp", "List", "ListComp", "Name", "Set", "SetComp", "SimpleString", "Subscript",
    "Tuple", "While",
) + (  # simple_code
    "AssignEqual", "BooleanOperation", "Comma", "Comparison", "ComparisonTarget", "Dot", "Float",
    "Integer", "LeftParen", "RightParen", "SimpleWhitespace", "UnaryOperation",
)


def is_node(value: object) -> bool:
    """``isinstance(value, cst.CSTNode)``, memoised by type. CSTNode is an abstract base
    class, whose isinstance test is several times slower than a dict lookup, and the
    analysis walks ask it of every field of every node (most are strings, sentinels and
    whitespace, the slow negative case)."""
    kind = type(value)
    found = IS_NODE.get(kind)
    if found is None:
        found = IS_NODE[kind] = issubclass(kind, cst.CSTNode)
    return found


def child_fields(kind: type) -> tuple[str, ...]:
    """The dataclass fields of a node type that can hold code (not whitespace), cached.

    Walking these directly is several times faster than libcst's visitor protocol,
    which rebuilds every node it visits.
    """
    fields = CHILD_FIELDS.get(kind)
    if fields is None:
        fields = tuple(
            f.name for f in dataclasses.fields(kind)
            if f.name not in _SKIPPED_FIELDS and not f.name.startswith("whitespace")
        )
        CHILD_FIELDS[kind] = fields
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


def visit_order(kind: type) -> Optional[tuple[str, ...]]:
    """The fields libcst visits for a node type, in its order (None: not readable)."""
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
    memos of :func:`visit_order` and :func:`is_node` are read inline here."""
    kind = type(node)
    order = _VISIT_ORDER[kind] if kind in _VISIT_ORDER else visit_order(kind)
    if order is None:
        return node.children
    known = IS_NODE.get
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


def descendants(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The node and every node under it (depth first, through :func:`children`)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(children(current))


@functools.lru_cache(maxsize=None)
def _operator_tokens() -> tuple[dict[type, str], dict[type, tuple[str, str]], dict[type, str]]:
    """What ``Module.code_for_node`` renders for the operators of simple expressions: one
    token, two (with the whitespace between them), unary (made on first use: importing
    this module must not load libcst)."""
    one = {
        cst.And: "and", cst.Or: "or", cst.Equal: "==", cst.NotEqual: "!=", cst.LessThan: "<",
        cst.LessThanEqual: "<=", cst.GreaterThan: ">", cst.GreaterThanEqual: ">=", cst.Is: "is",
        cst.In: "in",
    }
    return one, {cst.IsNot: ("is", "not"), cst.NotIn: ("not", "in")}, {cst.Not: "not", cst.Minus: "-"}


def simple_code(node: object) -> Optional[str]:
    """The code of a simple expression on one line, exactly as ``Module.code_for_node``
    renders it, without libcst's code generation (several times slower): names, dotted
    names, numbers and plain strings, ``not``/``-``, ``and``/``or``, comparisons and calls
    of them, with their parentheses. None for anything else (then ask libcst): a line
    break inside brackets (libcst renders its indentation from the enclosing block), any
    other node."""
    kind = type(node)
    if kind is cst.Name or kind is cst.Integer or kind is cst.Float or kind is cst.SimpleString:
        inner: Optional[str] = node.value  # type: ignore[attr-defined]
    elif kind is cst.Attribute:
        dot = node.dot  # type: ignore[attr-defined]
        value = simple_code(node.value)  # type: ignore[attr-defined]
        attr = simple_code(node.attr)  # type: ignore[attr-defined]
        before = _space(dot.whitespace_before) if type(dot) is cst.Dot else None
        after = _space(dot.whitespace_after) if type(dot) is cst.Dot else None
        if value is None or attr is None or before is None or after is None:
            return None
        inner = f"{value}{before}.{after}{attr}"
    elif kind is cst.UnaryOperation:
        operator = node.operator  # type: ignore[attr-defined]
        token = _operator_tokens()[2].get(type(operator))
        after = _space(operator.whitespace_after)
        operand = simple_code(node.expression)  # type: ignore[attr-defined]
        if token is None or after is None or operand is None:
            return None
        inner = f"{token}{after}{operand}"
    elif kind is cst.BooleanOperation:
        left = simple_code(node.left)  # type: ignore[attr-defined]
        operator = _operator(node.operator)  # type: ignore[attr-defined]
        right = simple_code(node.right)  # type: ignore[attr-defined]
        if left is None or operator is None or right is None:
            return None
        inner = f"{left}{operator}{right}"
    elif kind is cst.Comparison:
        parts = [simple_code(node.left)]  # type: ignore[attr-defined]
        for target in node.comparisons:  # type: ignore[attr-defined]
            if type(target) is not cst.ComparisonTarget:
                return None
            parts.append(_operator(target.operator))
            parts.append(simple_code(target.comparator))
        if None in parts:
            return None
        inner = "".join(parts)  # type: ignore[arg-type]
    elif kind is cst.Call:
        inner = _call_code(node)  # type: ignore[arg-type]
    else:
        return None
    if inner is None:
        return None
    lpar = node.lpar  # type: ignore[attr-defined]
    rpar = node.rpar  # type: ignore[attr-defined]
    if not lpar and not rpar:
        return inner
    opened = [_space(p.whitespace_after) if type(p) is cst.LeftParen else None for p in lpar]
    closed = [_space(p.whitespace_before) if type(p) is cst.RightParen else None for p in rpar]
    if None in opened or None in closed:
        return None
    return "".join(f"({w}" for w in opened) + inner + "".join(f"{w})" for w in closed)  # type: ignore[str-format]


def _space(whitespace: object) -> Optional[str]:
    return whitespace.value if type(whitespace) is cst.SimpleWhitespace else None  # type: ignore[attr-defined]


def _operator(operator: object) -> Optional[str]:
    kind = type(operator)
    before = _space(operator.whitespace_before)  # type: ignore[attr-defined]
    after = _space(operator.whitespace_after)  # type: ignore[attr-defined]
    if before is None or after is None:
        return None
    one_token, two_tokens, _ = _operator_tokens()
    if kind in one_token:
        return f"{before}{one_token[kind]}{after}"
    if kind in two_tokens:
        between = _space(operator.whitespace_between)  # type: ignore[attr-defined]
        if between is None:
            return None
        first, second = two_tokens[kind]
        return f"{before}{first}{between}{second}{after}"
    return None


def _token(token: object, kind: type, symbol: str, default: str) -> Optional[str]:
    """The text of an argument's ``=`` or ``,``: ``default`` where libcst fills it in,
    else the symbol with its own whitespace (None when that is not simple)."""
    if token is cst.MaybeSentinel.DEFAULT:
        return default
    if type(token) is not kind:
        return None
    before = _space(token.whitespace_before)  # type: ignore[attr-defined]
    after = _space(token.whitespace_after)  # type: ignore[attr-defined]
    if before is None or after is None:
        return None
    return f"{before}{symbol}{after}"


def _call_code(call: cst.Call) -> Optional[str]:
    func = simple_code(call.func)
    after_func = _space(call.whitespace_after_func)
    before_args = _space(call.whitespace_before_args)
    if func is None or after_func is None or before_args is None:
        return None
    parts = [func, after_func, "(", before_args]
    last = len(call.args) - 1
    for index, arg in enumerate(call.args):
        after_star = _space(arg.whitespace_after_star)
        after_arg = _space(arg.whitespace_after_arg)
        value = simple_code(arg.value)
        if after_star is None or after_arg is None or value is None:
            return None
        parts.append(arg.star)
        parts.append(after_star)
        if arg.keyword is not None:
            keyword = simple_code(arg.keyword)
            if keyword is None:
                return None
            parts.append(keyword)
        equal = _token(arg.equal, cst.AssignEqual, "=", " = " if arg.keyword is not None else "")
        if equal is None:
            return None
        parts.append(equal)
        parts.append(value)
        comma = _token(arg.comma, cst.Comma, ",", ", " if index != last else "")
        if comma is None:
            return None
        parts.append(comma)
        parts.append(after_arg)
    parts.append(")")
    return "".join(parts)


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


def attr_chain(node: cst.BaseExpression) -> Optional[list[str]]:
    parts: list[str] = []
    # type tests, not isinstance: see cst_helpers.CONCRETE (asked of most expressions)
    while type(node) is cst.Attribute:
        parts.append(node.attr.value)  # type: ignore[attr-defined]
        node = node.value  # type: ignore[attr-defined]
    if type(node) is cst.Name:
        parts.append(node.value)
        return parts[::-1]
    return None


def self_attr(node: cst.BaseExpression) -> Optional[str]:
    """The attribute name of ``self.<name>``, else None."""
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
        return node.attr.value
    return None


def chain_root(node: cst.CSTNode) -> cst.CSTNode:
    """Where a chain of attributes, items and calls starts (``ax`` of ``ax[0].twinx()``,
    ``f`` of ``f(x).read``); ``node`` itself when it is no such chain."""
    while type(node) in (cst.Attribute, cst.Subscript, cst.Call):
        node = node.func if type(node) is cst.Call else node.value  # type: ignore[attr-defined]
    return node


def target_names(target: cst.BaseExpression) -> list[cst.Name]:
    """The names an assignment or loop target binds (``a``, ``a, (b, *c)``)."""
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        out: list[cst.Name] = []
        for element in target.elements:
            out.extend(target_names(element.value))
        return out
    if isinstance(target, cst.StarredElement):
        return target_names(target.value)
    return []


def mentions_of(node: cst.CSTNode, name: str) -> bool:
    """Whether the name ``name`` occurs anywhere in ``node``."""
    return any(isinstance(child, cst.Name) and child.value == name for child in descendants(node))


def enclosing_function(module: cst.CSTNode, target: cst.CSTNode) -> Optional[cst.FunctionDef]:
    """The innermost function definition around ``target``."""
    stack: list[tuple[cst.CSTNode, Optional[cst.FunctionDef]]] = [(module, None)]
    while stack:
        current, function = stack.pop()
        if current is target:
            return function
        if isinstance(current, cst.FunctionDef):
            function = current
        stack.extend((child, function) for child in children(current))
    return None


def node_functions(module: cst.CSTNode) -> dict[int, str]:
    """``id`` of every node inside a function of ``module`` -> the dotted name of the
    innermost function around it, the classes and functions around that included
    (``Monitor.load``, ``main.inner``, as the facts name functions), in one walk; nodes at
    a module's or a class body's top level are absent."""
    out: dict[int, str] = {}
    stack: list[tuple[cst.CSTNode, tuple[str, ...], bool]] = [(module, (), False)]
    while stack:
        node, names, in_function = stack.pop()
        if in_function:
            out[id(node)] = ".".join(names)
        kind = type(node)
        if kind is cst.FunctionDef:
            names, in_function = (*names, node.name.value), True  # type: ignore[attr-defined]
        elif kind is cst.ClassDef:
            names, in_function = (*names, node.name.value), False  # type: ignore[attr-defined]
        stack.extend((child, names, in_function) for child in children(node))
    return out


def cuda_literal(node: Optional[cst.BaseExpression]) -> bool:
    """``"cuda"``, ``"cuda:0"``, ``f"cuda:{rank}"``, ``"cuda" if ... else "cpu"``."""
    if node is None:
        return False
    if isinstance(node, cst.SimpleString):
        try:
            value = node.evaluated_value
        except Exception:  # noqa: BLE001 - odd prefixes
            return False
        return isinstance(value, str) and (value == "cuda" or value.startswith("cuda:"))
    if isinstance(node, cst.FormattedString):
        first = node.parts[0] if node.parts else None
        return isinstance(first, cst.FormattedStringText) and first.value.startswith("cuda")
    if isinstance(node, cst.IfExp):
        return cuda_literal(node.body) or cuda_literal(node.orelse)
    if isinstance(node, cst.Call) and node.args:
        return cuda_literal(node.args[0].value)  # torch.device("cuda")
    return False


def strings_in(node: cst.CSTNode) -> str:
    """Every string literal inside an expression, joined (``XLA_FLAGS`` built by ``+``)."""
    out: list[str] = []

    def visit(n: cst.CSTNode) -> None:
        if isinstance(n, cst.SimpleString):
            try:
                value = n.evaluated_value
            except Exception:  # noqa: BLE001
                return
            if isinstance(value, str):
                out.append(value)
            return
        if isinstance(n, cst.FormattedStringText):
            out.append(n.value)
            return
        for child in children(n):
            visit(child)

    visit(node)
    return " ".join(out)


def literal_kwargs(node: cst.Call) -> tuple[tuple[str, Any], ...]:
    """A call's keyword arguments with their literal values (an attribute's value is
    the option of that name; UNKNOWN where neither)."""
    out = []
    for arg in node.args:
        if arg.keyword is not None:
            value = literal(arg.value)
            if value == UNKNOWN and isinstance(arg.value, cst.Attribute):
                value = OptionRef(arg.value.attr.value)
            out.append((arg.keyword.value, value))
    return tuple(out)


def is_docstring(stmt: cst.CSTNode) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def is_future_import(stmt: cst.CSTNode) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and any(
            isinstance(s, cst.ImportFrom) and isinstance(s.module, cst.Name) and s.module.value == "__future__"
            for s in stmt.body
        )
    )


def string_literal(node: cst.CSTNode) -> bool:
    """A string literal: plain, implicitly concatenated, or an f-string."""
    return isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))


def text_parts(node: cst.CSTNode) -> Optional[list[cst.CSTNode]]:
    """The parts of ``node`` whose values only become text, where ``node`` formats text:
    an f-string's fields, the arguments of ``"...".format(...)``, the right side of
    ``"..." % ...``. None for any other node."""
    kind = type(node)
    if kind is cst.FormattedString:
        return [part.expression for part in node.parts if type(part) is cst.FormattedStringExpression]  # type: ignore[attr-defined]
    if kind is cst.Call:
        func = node.func  # type: ignore[attr-defined]
        if type(func) is cst.Attribute and func.attr.value == "format" and string_literal(func.value):
            return [a.value for a in node.args]  # type: ignore[attr-defined]
        return None
    if kind is cst.BinaryOperation and type(node.operator) is cst.Modulo and string_literal(node.left):  # type: ignore[attr-defined]
        return [node.right]  # type: ignore[attr-defined]
    return None
