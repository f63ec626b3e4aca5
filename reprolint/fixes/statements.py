"""Statement codemods: move a statement up its block, set an attribute assignment.

``move_before`` is what "seed after draw" needs: the seeding statement moves above the
first statement that draws, in the same block, when nothing it reads is assigned in
between (otherwise the move would change what it computes, and it is not offered).
"""

from __future__ import annotations

from typing import Collection, Optional, Sequence

import libcst as cst

from reprolint.fixes._nodes import Statement, statement_names, used_names, walk

__all__ = ["can_move_before", "move_before", "set_assignment_value"]


def can_move_before(
    body: Sequence[cst.CSTNode],
    moving: cst.CSTNode,
    before: cst.CSTNode,
    modules: Collection[str] = (),
) -> bool:
    """Whether ``moving`` can go just above ``before`` in the same ``body`` safely.

    It must be a simple statement below ``before``; the statements it would jump over
    (``before`` included) must not bind or change anything it reads (attribute,
    subscript and augmented assignments count for their root name), and must not read
    what it binds. A call among them may change what it reads (``opt = configure(opt)``
    or ``setup()`` setting ``opt.seed``), so when ``moving`` reads any value beyond the
    names it calls through, only calls through ``modules`` (names bound to imported
    modules, such as ``random.random()``) that are not handed any of those values are
    allowed. When in doubt, the move is refused.
    """
    body = list(body)
    if moving not in body or before not in body:
        return False
    i, j = body.index(before), body.index(moving)
    if j <= i or not isinstance(moving, cst.SimpleStatementLine):
        return False
    jumped = body[i:j]
    reads = set().union(*(used_names(s) for s in jumped)) if jumped else set()
    if used_names(moving) & statement_names(jumped) or statement_names([moving]) & reads:
        return False
    values = _value_names(moving) - set(modules)
    if not values:
        return True
    for statement in jumped:
        for node, _ in walk(statement):
            if isinstance(node, cst.Call):
                root = _root_name(node.func)
                if root is None or root not in modules:
                    return False
                if any(used_names(arg.value) & values for arg in node.args):
                    return False
    return True


def _root_name(expression: cst.BaseExpression) -> Optional[str]:
    """``a`` for ``a``, ``a.b.c``; None for anything else (``f()()``, ``x[0].m``)."""
    while isinstance(expression, cst.Attribute):
        expression = expression.value
    return expression.value if isinstance(expression, cst.Name) else None


def _value_names(statement: cst.CSTNode) -> set[str]:
    """The names ``statement`` reads as data: every name except the roots of the
    functions it calls (``random.seed(opt.seed)`` reads ``opt``, not ``random``)."""
    skipped: set[int] = set()
    names = set()
    for node, _ in walk(statement):
        if isinstance(node, cst.Attribute):
            skipped.add(id(node.attr))
        if isinstance(node, cst.Arg) and node.keyword is not None:
            skipped.add(id(node.keyword))
        if isinstance(node, cst.Call):
            root = node.func
            while isinstance(root, cst.Attribute):
                root = root.value
            skipped.add(id(root))
        elif isinstance(node, cst.Name) and id(node) not in skipped:
            names.add(node.value)
    return names


def move_before(
    suite: cst.CSTNode, moving: cst.CSTNode, before: cst.CSTNode
) -> cst.CSTNode:
    """``suite`` (a Module or IndentedBlock) with ``moving`` placed just above ``before``.

    The moved statement takes the blank lines ``before`` had and ``before`` gets none
    (its own comments stay with it), so the block reads as it did with one line more.
    """
    body = list(suite.body)  # type: ignore[attr-defined]
    i, j = body.index(before), body.index(moving)
    moved: Statement = body.pop(j)  # type: ignore[assignment]
    comments = [line for line in moved.leading_lines if line.comment is not None]
    if j + 1 <= len(body) and j < len(body) and j > i:
        # What followed the moved statement inherits its blank lines (keeps the layout).
        follower = body[j]
        blanks = [line for line in moved.leading_lines if line.comment is None]
        if blanks and not follower.leading_lines:
            body[j] = follower.with_changes(leading_lines=tuple(blanks))
    target = body[i]
    blank = [line for line in target.leading_lines if line.comment is None and not _is_comment(line)]
    target_comments = [line for line in target.leading_lines if line.comment is not None]
    moved = moved.with_changes(leading_lines=(*blank, *comments))
    body[i] = target.with_changes(leading_lines=tuple(target_comments))
    body.insert(i, moved)
    return suite.with_changes(body=body)


def _is_comment(line: cst.EmptyLine) -> bool:
    return line.comment is not None


def set_assignment_value(
    statement: cst.SimpleStatementLine, value: cst.BaseExpression, target: Optional[str] = None
) -> cst.SimpleStatementLine:
    """An assignment statement (``cudnn.benchmark = True``) with its value replaced.

    ``target`` (source text such as ``torch.backends.cudnn.benchmark``), when given,
    must match one of the assignment's targets, else the statement is unchanged.
    """
    body = []
    for small in statement.body:
        if isinstance(small, cst.Assign):
            names = {cst.Module([]).code_for_node(t.target) for t in small.targets}
            if target is None or target in names:
                small = small.with_changes(value=value)
        body.append(small)
    return statement.with_changes(body=body)
