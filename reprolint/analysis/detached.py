"""Whether an op's value reaches a gradient: a value a function only detaches.

``dist_ref = torch.gather(dist, 1, idx)[:, 0]``, then ``ref = F.softmax(torch.stack((
dist_ref, other), 1), 1).detach()``, then ``loss = (-ref * log_p).sum()``: the gathered
values reach the loss only through ``.detach()``, so no gradient flows back to the
gather and its backward never runs. A name-level flow over the statements of the
function's own body, in order, after the op's assignment: a name assigned from an
expression that reads a carrying name carries the value too, unless the expression is
detached as a whole (``.detach()``, ``.item()``, ``.tolist()``, ``.numpy()``, ``.data``,
``float(...)``); a name assigned from anything else stops carrying it. Any other
statement that reads a carrying name (a return, a call, a branch, a loop, a store into
an attribute or an item) may take a gradient through it.
"""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst

from reprolint.analysis.cst_helpers import descendants

__all__ = ["only_detached"]

_DETACHING = frozenset({"detach", "item", "tolist", "numpy"})
_CHAINS = frozenset({"cpu", "float", "double", "clone", "contiguous", "squeeze", "unsqueeze", "view", "reshape"})


def only_detached(body: Optional[cst.CSTNode], op: cst.Call) -> bool:
    """Whether the value of ``op``, written in the value of an assignment to one name
    among the top-level statements of ``body`` (a function's), reaches nothing but
    detached values in the statements after it (see the module docstring)."""
    if not isinstance(body, cst.IndentedBlock):
        return False
    statements = list(body.body)
    start = None
    carrying: set[str] = set()
    for index, statement in enumerate(statements):
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            small = statement.body[0]
            if isinstance(small, cst.Assign) and len(small.targets) == 1 \
                    and isinstance(small.targets[0].target, cst.Name) \
                    and any(node is op for node in descendants(small.value)):
                if _detached(small.value):
                    return False  # (said at once: the op's own `.detach()` facts)
                start, carrying = index, {small.targets[0].target.value}
                break
    if start is None:
        return False
    for statement in statements[start + 1:]:
        read = {n.value for n in descendants(statement) if isinstance(n, cst.Name)}
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            target = small.targets[0].target.value
            reads = {n.value for n in descendants(small.value) if isinstance(n, cst.Name)}
            if reads & carrying and not _detached(small.value):
                carrying.add(target)
            else:
                carrying.discard(target)
            continue
        if read & carrying:
            return False
    return True


def _detached(value: Any) -> bool:
    """The expression's value is detached as a whole: ``(...).detach()`` (through casts
    and moves after it), ``.item()``, ``.data``, ``float(...)``."""
    while True:
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
            if value.func.attr.value in _DETACHING:
                return True
            if value.func.attr.value in _CHAINS:
                value = value.func.value
                continue
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("float", "int") \
                and len(value.args) == 1:
            return True
        return isinstance(value, cst.Attribute) and value.attr.value == "data"
