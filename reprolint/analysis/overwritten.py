"""Layers whose random initial parameters the code that builds them overwrites at once.

``fused = nn.Conv2d(...)`` followed in the same body by ``fused.weight.copy_(w)`` and
``fused.bias.copy_(b)`` (BatchNorm fusion, weight surgery, a layer loaded with
``load_state_dict``) draws initial values that never reach a result: the draw is real,
its values are not used. A parameter left as drawn (the bias of a layer whose weight
alone is copied) keeps the draw.
"""

from __future__ import annotations

import functools
from typing import Any, Optional, Sequence

import libcst as cst

from reprolint.analysis.cst_helpers import attr_chain, child_fields, find_argument, literal

__all__ = ["overwritten_layers"]

# the calls that chain on a freshly built layer and return it (`.to(device)`)
_CHAINED = frozenset({"to", "cuda", "cpu", "half", "float", "double", "bfloat16", "requires_grad_", "eval", "train"})


def overwritten_layers(module: cst.Module) -> set[int]:
    """ids of the constructor calls of layers assigned to a name whose weight (and bias,
    unless built with ``bias=False``, or an embedding's only table) the statements after
    it in the same body overwrite, or that ``name.load_state_dict(...)`` replaces."""
    found: set[int] = set()
    _blocks(module.body, found)
    return found


def _blocks(statements: Sequence[cst.CSTNode], found: set[int]) -> None:
    built: list[tuple[int, str, cst.Call]] = []  # (index, name, constructor call)
    writes: list[tuple[int, str, str]] = []  # (index, name, parameter or "*": all of them)
    for i, statement in enumerate(statements):
        if type(statement) is cst.SimpleStatementLine:
            for small in statement.body:
                if type(small) is cst.Assign and len(small.targets) == 1 and type(small.targets[0].target) is cst.Name:
                    call = _built(small.value)
                    if call is not None:
                        built.append((i, small.targets[0].target.value, call))  # type: ignore[attr-defined]
        else:
            for body in _bodies(statement):
                _blocks(body, found)
        writes.extend((i, name, param) for name, param in _writes(statement))
    by_name: dict[str, list[tuple[int, str]]] = {}
    for i, name, param in writes:
        by_name.setdefault(name, []).append((i, param))
    for index, name, call in built:
        written = {param for i, param in by_name.get(name, ()) if i > index}
        if _covers(written, call):
            found.add(id(call))


def _bodies(statement: cst.CSTNode) -> list[Sequence[cst.CSTNode]]:
    """The statement lists nested in a compound statement (a function's, a branch's)."""
    out: list[Sequence[cst.CSTNode]] = []
    stack: list[Any] = [statement]
    while stack:
        node = stack.pop()
        body = getattr(node, "body", None)
        if type(body) is cst.IndentedBlock:
            out.append(body.body)
        for name in ("orelse", "finalbody"):
            if (part := getattr(node, name, None)) is not None:
                stack.append(part)
        stack.extend(getattr(node, "handlers", ()))
    return out


def _built(value: cst.BaseExpression) -> Optional[cst.Call]:
    """The call that builds the value: ``nn.Conv2d(...)``, also under chained
    ``.requires_grad_(False).to(device)``."""
    while type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value in _CHAINED:  # type: ignore[attr-defined]
        value = value.func.value  # type: ignore[attr-defined]
    return value if type(value) is cst.Call else None  # type: ignore[return-value]


def _writes(statement: cst.CSTNode) -> list[tuple[str, str]]:
    """(name, parameter) each write in ``statement`` that surely runs makes: ``name.P.copy_(...)``,
    ``name.P = ...``, ``name.P.data = ...``, and ``name.load_state_dict(...)`` (``*``)."""
    out: list[tuple[str, str]] = []
    for node in _walk(statement):
        kind = type(node)
        if kind is cst.Call and type(node.func) is cst.Attribute:  # type: ignore[attr-defined]
            method, owner = node.func.attr.value, node.func.value  # type: ignore[attr-defined]
            if method == "load_state_dict" and type(owner) is cst.Name and not _partial(node):  # type: ignore[arg-type]
                out.append((owner.value, "*"))  # type: ignore[attr-defined]
            elif method == "copy_" and (found := _parameter(owner)) is not None:
                out.append(found)
        elif kind is cst.Assign:
            for target in node.targets:  # type: ignore[attr-defined]
                if (found := _parameter(target.target)) is not None:
                    out.append(found)
    return out


def _covers(written: set[str], call: cst.Call) -> bool:
    """Whether writing ``written`` replaces every parameter the layer ``call`` builds
    draws: its weight, and its bias unless it has none."""
    if "*" in written:
        return True
    if "weight" not in written:
        return False
    if "bias" in written or (attr_chain(call.func) or [""])[-1].endswith("Embedding"):
        return True
    bias = find_argument(call, "bias", None)
    return bias is not None and literal(bias.value) is False


@functools.cache
def _conditional() -> tuple[type, ...]:
    """Statements whose bodies may not run (or run later): what they write is not surely
    written. (Made on first use: reading them off ``cst`` at import would import the real
    libcst, see reprolint/_lazy.py.)"""
    return (cst.If, cst.For, cst.While, cst.Try, cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.IfExp)


def _walk(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The nodes of a statement that surely run with it (a `with` body does; a branch,
    a loop, a handler or a nested function may not)."""
    out: list[cst.CSTNode] = []
    stack: list[cst.CSTNode] = [node]
    conditional = _conditional()
    while stack:
        child = stack.pop()
        if isinstance(child, conditional) or type(child).__name__ in ("Match", "TryStar"):
            continue
        out.append(child)
        # the fields that hold code (whitespace nodes left out: cst_helpers.child_fields)
        for name in child_fields(type(child)):
            value = getattr(child, name)
            if isinstance(value, cst.CSTNode):
                stack.append(value)
            elif isinstance(value, (list, tuple)):
                stack.extend(v for v in value if isinstance(v, cst.CSTNode))
    return out


def _partial(call: cst.Call) -> bool:
    """``load_state_dict(state, strict=False)``: keys it lacks keep their drawn values."""
    strict = find_argument(call, "strict", None)
    return strict is not None and literal(strict.value) is not True


def _parameter(node: cst.BaseExpression) -> Optional[tuple[str, str]]:
    """(name, P) of ``name.P`` or ``name.P.data``."""
    if type(node) is cst.Attribute and node.attr.value == "data":  # type: ignore[attr-defined]
        node = node.value  # type: ignore[attr-defined]
    if type(node) is cst.Attribute and type(node.value) is cst.Name:  # type: ignore[attr-defined]
        return node.value.value, node.attr.value  # type: ignore[attr-defined]
    return None
