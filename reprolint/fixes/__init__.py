"""Reusable libcst codemods used by `reprolint fix`.

Each codemod works on a parsed module (or on the node a diagnostic points at) and
returns the rebuilt one; formatting and comments outside the edited nodes are kept.
:func:`rewrite` applies a node codemod to the node at a span. Each rule plans its own
fix in its module (``@MyRule.fix_planner``) from a :class:`~reprolint.fixes.planning.FixPlanner`;
what several rules share is :mod:`~reprolint.fixes.seeding` (seeding a program) and
:mod:`~reprolint.fixes.determinism` (the determinism switches at an entry point).

The fix engine lives here too, one module per job: :mod:`~reprolint.fixes.edits` (line
edits, the parse guarantee), :mod:`~reprolint.fixes.engine` (the rounds to convergence
and the report), :mod:`~reprolint.fixes.files` (reading with the limits `check` applies,
atomic writes) and :mod:`~reprolint.fixes.notebook_edits` (a program's lines back into
their cells).
"""

from __future__ import annotations

from typing import Callable, Iterable, Optional

import libcst as cst

from reprolint.fixes._nodes import (
    Located,
    find_call,
    find_node,
    parse_expression,
    parse_statements,
    replace_nodes,
    walk,
)
from reprolint.fixes.blocks import (
    ensure_after_imports,
    ensure_at_loop_top,
    ensure_function,
    worker_seed_source,
)
from reprolint.fixes.calls import add_keyword, find_argument, set_argument, wrap_call
from reprolint.fixes.imports import ImportItem, add_imports, module_binding, top_level_bindings
from reprolint.fixes.insert import (
    add_else_branch,
    import_block_end,
    insert_after_imports,
    insert_statements,
)
from reprolint.fixes.statements import can_move_before, move_before, set_assignment_value
from reprolint.model import Span

__all__ = [
    "ImportItem",
    "Located",
    "add_else_branch",
    "add_imports",
    "add_keyword",
    "can_move_before",
    "ensure_after_imports",
    "ensure_at_loop_top",
    "ensure_function",
    "find_argument",
    "find_call",
    "find_node",
    "import_block_end",
    "insert_after_imports",
    "insert_statements",
    "module_binding",
    "move_before",
    "parse_expression",
    "parse_statements",
    "replace_nodes",
    "rewrite",
    "rewrite_each",
    "set_argument",
    "set_assignment_value",
    "top_level_bindings",
    "walk",
    "worker_seed_source",
    "wrap_call",
]


def rewrite(
    module: cst.Module,
    span: Span,
    change: Callable[[cst.CSTNode], cst.CSTNode],
    kinds: Optional[tuple[type, ...]] = None,
    also: tuple[Span, ...] = (),
) -> cst.Module:
    """``module`` with the node of ``kinds`` at ``span`` replaced by ``change(node)``, and
    likewise the nodes at ``also`` (one finding's other sites).

    Raises LookupError when no such node is there (the source moved since the span
    was computed). ``kinds`` defaults to calls.
    """
    kinds = kinds if kinds is not None else (cst.Call,)
    return rewrite_each(module, [(at, kinds, change) for at in (span, *also)])


def rewrite_each(
    module: cst.Module, sites: Iterable[tuple[Span, tuple[type, ...], Callable[[cst.CSTNode], cst.CSTNode]]],
) -> cst.Module:
    """``module`` with the node of each site's kinds at its span replaced by the site's
    change: every node is located in the original module first, so one change cannot
    move another's span. Raises LookupError when a site's node is not there."""
    replacements: dict[int, Callable[[cst.CSTNode], cst.CSTNode]] = {}
    for at, kinds, change in sites:
        located = find_node(module, at, kinds) or find_node(module, at, kinds, exact=False)
        if located is None:
            raise LookupError(f"no {'/'.join(k.__name__ for k in kinds)} at {at}")
        replacements[id(located.node)] = change
    return replace_nodes(module, replacements)
