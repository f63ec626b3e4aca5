"""Inserting statements: after a module's imports, after a statement, in an ``else:``.

Only the inserted statements are new; every other statement keeps its comments and
blank lines.
"""

from __future__ import annotations

from typing import Callable, Collection, Optional, Sequence

import libcst as cst

from reprolint.analysis.cst_helpers import is_docstring
from reprolint.fixes._nodes import Statement, statement_names, used_names, walk

__all__ = [
    "add_else_branch",
    "free_names",
    "import_block_end",
    "insert_after_imports",
    "insert_statements",
    "with_blank_lines",
]


def _is_import_line(statement: cst.CSTNode) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and all(
        isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body
    )


def _is_guarded_import(statement: cst.CSTNode) -> bool:
    """``try: import x`` / ``if TYPE_CHECKING: import x``: imports, whatever the handlers do."""
    if isinstance(statement, (cst.Try, cst.If)) and isinstance(statement.body, cst.IndentedBlock):
        body = statement.body.body
        return bool(body) and all(_is_import_line(s) for s in body)
    return False


def import_block_end(
    module: cst.Module,
    stop: Optional[Callable[[cst.CSTNode], bool]] = None,
    needs: Collection[str] = (),
) -> int:
    """Index in ``module.body`` just after the leading docstring and imports.

    ``stop(statement)`` true ends the block before that statement (an import that must
    not run before the inserted code, such as a project module that draws on import).

    ``needs``: names the inserted code uses. When an import of one of them comes after
    a statement that splits the import block (``warnings.filterwarnings(...)`` between
    imports), the insertion goes after that import too. Raises LookupError when a
    ``stop`` comes first: no place both follows the import and precedes the stop.
    """
    end = 0
    for i, statement in enumerate(module.body):
        if i == 0 and is_docstring(statement):
            end = 1
            continue
        if stop is not None and stop(statement):
            break
        if _is_import_line(statement) or _is_guarded_import(statement):
            end = i + 1
            continue
        if _is_pass(statement):
            continue  # a notebook's neutralised magic (`%matplotlib inline`) among imports
        break
    if not needs:
        return end
    wanted = set(needs)
    for i in range(end, len(module.body)):
        statement = module.body[i]
        if (_is_import_line(statement) or _is_guarded_import(statement)) and statement_names([statement]) & wanted:
            if stop is not None and any(stop(s) for s in module.body[end:i + 1]):
                raise LookupError("an import the fix needs follows a project import that draws")
            end = i + 1
    return end


def free_names(statements: Sequence[cst.CSTNode]) -> set[str]:
    """The names ``statements`` read, less the functions and parameters they define (an
    over-estimate: attribute names and locals count too)."""
    used: set[str] = set()
    defined: set[str] = set()
    for statement in statements:
        used |= used_names(statement)
        for node, _ in walk(statement):
            if isinstance(node, cst.Param):
                defined.add(node.name.value)
            elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
                defined.add(node.name.value)
    return used - defined


def _is_pass(statement: cst.CSTNode) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and all(
        isinstance(small, cst.Pass) for small in statement.body
    )


def with_blank_lines(statement: Statement, count: int) -> Statement:
    """``statement`` with exactly ``count`` blank lines (and its comments) above it."""
    comments = [line for line in statement.leading_lines if line.comment is not None]
    return statement.with_changes(leading_lines=(*[cst.EmptyLine()] * count, *comments))


def insert_statements(
    module: cst.Module, index: int, statements: Sequence[Statement], blank_lines: int = 1
) -> cst.Module:
    """Insert ``statements`` at ``index`` of the module body, ``blank_lines`` above them.

    When inserted in the middle of a block, the statement that followed keeps its own
    blank lines; at the very top the first statement's comments stay above it.
    """
    statements = list(statements)
    if not statements:
        return module
    body = list(module.body)
    gap = blank_lines if index > 0 else 0
    statements[0] = with_blank_lines(statements[0], gap)
    if index < len(body) and not body[index].leading_lines:
        body[index] = with_blank_lines(body[index], 1)
    return module.with_changes(body=(*body[:index], *statements, *body[index:]))


def insert_after_imports(
    module: cst.Module,
    statements: Sequence[Statement],
    stop: Optional[Callable[[cst.CSTNode], bool]] = None,
    blank_lines: int = 1,
) -> cst.Module:
    """Insert ``statements`` right after the module's leading imports (see ``stop``),
    and after every import of a name they use."""
    index = import_block_end(module, stop, free_names(statements))
    return insert_statements(module, index, statements, blank_lines)


def add_else_branch(if_node: cst.If, statements: Sequence[Statement]) -> cst.If:
    """``if_node`` with ``statements`` in its ``else:`` (made when it has none; added at
    the end of an existing ``else:``). Raises ValueError for an ``elif``."""
    body = [with_blank_lines(s, 0) for s in statements]
    if if_node.orelse is None:
        return if_node.with_changes(orelse=cst.Else(body=cst.IndentedBlock(body=body)))
    orelse = if_node.orelse
    if not isinstance(orelse, cst.Else) or not isinstance(orelse.body, cst.IndentedBlock):
        raise ValueError("the `if` has an `elif` or a one-line `else`")
    block = orelse.body
    return if_node.with_changes(
        orelse=orelse.with_changes(body=block.with_changes(body=(*block.body, *body)))
    )
