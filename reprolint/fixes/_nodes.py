"""Finding nodes by position, and replacing them: the plumbing every codemod shares.

Codemods address their targets by :class:`~reprolint.model.Span`, the positions the
checks report, so that a fix planned from a diagnostic finds exactly the node the
diagnostic points at. Replacement matches on the original node (by identity) and
returns the updated one, as libcst transforms do.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, Iterator, Mapping, Optional, Sequence, TypeAlias, Union

import libcst as cst

from reprolint.analysis.cst_helpers import child_fields, is_node
from reprolint.analysis.positions import node_spans
from reprolint.model import Span

__all__ = [
    "Located",
    "find_call",
    "find_node",
    "parse_expression",
    "parse_statements",
    "replace_nodes",
    "walk",
]

# A string alias: a module-level ``cst.X`` would import the real libcst when the command
# line only needs the rule table (see reprolint._lazy).
Statement: TypeAlias = "Union[cst.SimpleStatementLine, cst.BaseCompoundStatement]"


@dataclass(frozen=True)
class Located:
    """A node and its ancestors, innermost last (the module first)."""

    node: cst.CSTNode
    parents: tuple[cst.CSTNode, ...]

    def statement(self) -> Optional[Statement]:
        """The innermost statement that holds the node (the node itself if it is one)."""
        for item in (self.node, *reversed(self.parents)):
            if isinstance(item, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
                return item
        return None

    def suite_of(self, statement: cst.CSTNode) -> Optional[cst.CSTNode]:
        """The node whose ``body`` lists ``statement`` (Module or IndentedBlock)."""
        chain = (*self.parents, self.node)
        for i, item in enumerate(chain):
            if item is statement and i > 0:
                parent = chain[i - 1]
                if isinstance(parent, (cst.Module, cst.IndentedBlock)):
                    return parent
        return None


_child_fields = child_fields


def walk(
    node: cst.CSTNode, parents: tuple[cst.CSTNode, ...] = ()
) -> Iterator[tuple[cst.CSTNode, tuple[cst.CSTNode, ...]]]:
    """Every code node below ``node`` (pre-order) with its ancestors.

    Whitespace, comments and punctuation nodes are skipped: no codemod targets them,
    and reading dataclass fields is several times faster than libcst's ``children``.
    """
    stack: list[tuple[cst.CSTNode, tuple[cst.CSTNode, ...]]] = [(node, parents)]
    while stack:
        current, above = stack.pop()
        yield current, above
        below = (*above, current)
        children: list[cst.CSTNode] = []
        for name in _child_fields(type(current)):
            value = getattr(current, name)
            if type(value) is tuple or type(value) is list:
                children.extend(v for v in value if is_node(v))
            elif is_node(value):
                children.append(value)
        stack.extend((child, below) for child in reversed(children))


def find_node(
    module: cst.Module, span: Span, kinds: tuple[type, ...], exact: bool = True
) -> Optional[Located]:
    """The node of one of ``kinds`` at ``span`` (or starting at its start if not exact)."""
    candidates = [(n, p) for n, p in walk(module) if isinstance(n, kinds)]
    spans = node_spans(module, [n for n, _ in candidates])
    for node, parents in candidates:
        found = spans.get(id(node))
        if found is None:
            continue
        if found == span or (
            not exact and (found.start_line, found.start_col) == (span.start_line, span.start_col)
        ):
            return Located(node, parents)
    return None


def find_call(module: cst.Module, span: Span) -> Optional[Located]:
    """The call expression a check reported at ``span``."""
    return find_node(module, span, (cst.Call,)) or find_node(module, span, (cst.Call,), exact=False)


@functools.cache
def _replacer_class() -> type:
    # Built on first use: a module-level ``class _(cst.CSTTransformer)`` would import the
    # real libcst when the command line only needs the rule table (see reprolint._lazy).
    class _Replacer(cst.CSTTransformer):
        def __init__(self, replacements: Mapping[int, Callable[[cst.CSTNode], object]]) -> None:
            super().__init__()
            self.replacements = replacements

        def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode):  # type: ignore[override]
            make = self.replacements.get(id(original_node))
            if make is None:
                return updated_node
            return make(updated_node)

    return _Replacer


def replace_nodes(
    module: cst.Module, replacements: Mapping[int, Callable[[cst.CSTNode], object]]
) -> cst.Module:
    """Rebuild ``module``, replacing each original node whose ``id`` is a key.

    The callable gets the updated node (children already rebuilt) and returns its
    replacement: a node, a ``FlattenSentinel`` of statements, or ``RemovalSentinel``.
    """
    if not replacements:
        return module
    return module.visit(_replacer_class()(replacements))


def parse_statements(code: str, module: cst.Module) -> list[Statement]:
    """Statements parsed with the module's indentation and newline conventions."""
    parsed = cst.parse_module(code, config=module.config_for_parsing)
    return list(parsed.body)


def parse_expression(code: str, module: cst.Module) -> cst.BaseExpression:
    return cst.parse_expression(code, config=module.config_for_parsing)


def statement_names(statements: Sequence[cst.CSTNode]) -> set[str]:
    """Names bound or changed by assignments, definitions and imports in ``statements``.

    An assignment to an attribute or a subscript (``opt.seed = 1``, ``cfg["seed"] += 1``)
    changes the object its root name refers to, so the root counts as assigned; so do
    ``del`` targets, ``global``/``nonlocal`` names, ``with ... as`` and ``except ... as``.
    """
    bound: set[str] = set()
    for statement in statements:
        for node, _ in walk(statement):
            if isinstance(node, cst.AssignTarget):
                bound |= target_names(node.target)
            elif isinstance(node, (cst.AnnAssign, cst.AugAssign, cst.Del)):
                bound |= target_names(node.target)
            elif isinstance(node, (cst.Global, cst.Nonlocal)):
                bound |= {item.name.value for item in node.names}
            elif isinstance(node, cst.AsName):
                bound |= target_names(node.name)  # type: ignore[arg-type]
            elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
                bound.add(node.name.value)
            elif isinstance(node, cst.For):
                bound |= target_names(node.target)
            elif isinstance(node, cst.NamedExpr):
                bound |= target_names(node.target)
            elif isinstance(node, cst.ImportAlias):
                if node.asname is not None and isinstance(node.asname.name, cst.Name):
                    bound.add(node.asname.name.value)
                else:
                    code = cst.Module([]).code_for_node(node.name)
                    bound.add(code.split(".")[0])
    return bound


def target_names(target: cst.BaseExpression) -> set[str]:
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        out: set[str] = set()
        for element in target.elements:
            out |= target_names(element.value)
        return out
    if isinstance(target, cst.StarredElement):
        return target_names(target.value)
    if isinstance(target, (cst.Attribute, cst.Subscript)):
        return target_names(target.value)  # the object whose attribute or item changes
    return set()


def used_names(node: cst.CSTNode) -> set[str]:
    """Every bare name an expression reads (the roots of attribute chains included)."""
    return {n.value for n, _ in walk(node) if isinstance(n, cst.Name)}
