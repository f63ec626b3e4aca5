"""A DataLoader's ``collate_fn``: the function it calls on each batch of samples.

It runs where the samples are made, in the loader's worker processes (or in the main
process when it has none), on the CPU tensors a dataset returns, which carry no autograd
graph: the program model runs it like a dataset's ``__getitem__``
(:meth:`ExecutionModel.runs_in_workers`). Here: the project functions a ``collate_fn=``
argument names, through a conditional expression (``collate_fn4 if quad else
collate_fn``) and a name bound to one earlier in the same scope.
"""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst

__all__ = ["collate_targets"]


def collate_targets(collector: Any, value: Optional[cst.BaseExpression]) -> list[str]:
    """The call targets (as :meth:`call_target` gives them) ``value`` may name."""
    found: list[str] = []
    pending = [value] if value is not None else []
    seen = 0
    while pending and seen < 8:
        seen += 1
        node = pending.pop()
        if type(node) is cst.IfExp:
            pending += [node.body, node.orelse]  # type: ignore[attr-defined]
            continue
        if type(node) is cst.Lambda and type(node.body) is cst.Call:  # type: ignore[attr-defined]
            # `collate_fn=lambda x: load(x, c, offset)`: the lambda runs `load` per batch
            pending.append(node.body.func)  # type: ignore[attr-defined]
            continue
        if type(node) is cst.Call and collector.qualify(node.func) == "functools.partial" and node.args:  # type: ignore[attr-defined]
            pending.append(node.args[0].value)  # type: ignore[attr-defined]
            continue
        if type(node) is cst.Name and collector.is_local(node.value):  # type: ignore[attr-defined]
            bound = collector.bound_values.get((id(collector.scope), node.value))  # type: ignore[attr-defined]
            if bound is not None:
                pending.append(bound)
            continue
        target = collector.call_target(node)
        if target is not None:
            found.append(target)
    return found
