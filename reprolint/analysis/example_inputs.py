"""Values that serve only as a model's example input: tracing, export, graph and FLOP counts.

``torch.onnx.export(model, torch.randn(1, 3, 224, 224), path)``, ``torch.jit.trace(model,
dummy)``, ``writer.add_graph(model, dummy)``, ``thop.profile(model, inputs=(dummy,))``:
what they produce (the exported graph with the model's weights, a FLOP count) depends on
the input's shape and dtype, not on its values (a model whose control flow branches on
its input's values aside), so a random example input decides no result. A draw that
reaches nothing else is no draw that matters.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import libcst as cst

from reprolint.analysis.cst_helpers import children, descendants, find_argument

__all__ = ["example_only_calls", "is_example_function"]

# Functions whose argument at (position, keyword) is an example input, by their last name.
_EXAMPLE_FUNCTIONS = {
    "export": ((1, "args"), frozenset({"torch.onnx.export", "torch.export.export"})),
    "trace": ((1, "example_inputs"), frozenset({"torch.jit.trace"})),
    "trace_module": ((1, "inputs"), frozenset({"torch.jit.trace_module"})),
    "profile": ((1, "inputs"), frozenset({"thop.profile"})),
    "FlopCountAnalysis": ((1, "inputs"), frozenset({"fvcore.nn.FlopCountAnalysis"})),
    "summary": ((2, "input_data"), frozenset({"torchinfo.summary"})),
}
# Methods (any receiver) whose argument at (position, keyword) is one:
# `SummaryWriter.add_graph(model, input_to_model)`.
_EXAMPLE_METHODS = {"add_graph": (1, "input_to_model")}

# Calls that return their receiver on another device or dtype (`dummy.to(device)`).
_CHAINED = frozenset({"to", "cuda", "cpu", "half", "float", "double", "bfloat16", "contiguous", "requires_grad_"})

Qualify = Callable[[Any], Optional[str]]  # a module's qualify: an expression -> its dotted name


def example_only_calls(module: cst.Module) -> dict[int, list[Any]]:
    """id of each call whose value may reach nothing but example inputs -> the callees
    (``func`` expressions) it reaches them through; it is one where each of those is an
    example function (:func:`is_example_function`, asked when the imports before the
    call are known). Such a call is written as the example argument (or an element of its
    tuple), or assigned to a name that the same function (or the module's top level)
    reads only there and in ``name = name.to(...)``."""
    found: dict[int, list[Any]] = {}
    _scope(module.body, found)
    return found


def is_example_function(func: Any, qualify: Qualify) -> bool:
    """Whether the callee ``func`` (from :func:`example_only_calls`) takes an example input
    where the call was found: a method such as ``add_graph``, or a function that
    ``qualify`` names as one of the table's."""
    if type(func) is cst.Attribute and func.attr.value in _EXAMPLE_METHODS:
        return True
    name = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else None
    return name in _EXAMPLE_FUNCTIONS and qualify(func) in _EXAMPLE_FUNCTIONS[name][1]


def _unchained(node: cst.BaseExpression) -> cst.BaseExpression:
    """``torch.randn(2).to(device).float()`` -> ``torch.randn(2)``."""
    while type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in _CHAINED:
        node = node.func.value
    return node


def _example_argument(call: cst.Call) -> Optional[cst.BaseExpression]:
    """The argument a call may take an example input at (by the callee's last name)."""
    func = call.func
    spec = None
    if type(func) is cst.Attribute:
        spec = _EXAMPLE_METHODS.get(func.attr.value) or _EXAMPLE_FUNCTIONS.get(func.attr.value, (None,))[0]
    elif type(func) is cst.Name:
        spec = _EXAMPLE_FUNCTIONS.get(func.value, (None,))[0]
    if spec is None:
        return None
    arg = find_argument(call, spec[1], spec[0])
    return arg.value if arg is not None else None


def _elements(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    """An example argument's parts: the elements of a tuple or list of inputs."""
    if type(node) in (cst.Tuple, cst.List):
        return [e.value for e in node.elements if type(e) is cst.Element]  # type: ignore[attr-defined]
    return [node]


class _Reads:
    """In one scope (nested functions and classes excluded): the example arguments, the
    names assigned from a call, and every read of a name."""

    def __init__(self) -> None:
        self.examples: list[tuple[cst.BaseExpression, Any]] = []  # (example-input part, unchained; callee)
        self.assigned: dict[str, list[cst.Call]] = {}  # name -> the calls assigned to it
        self.rebinds: set[int] = set()  # ids of Name reads in `x = x.to(device)`
        self.reads: dict[str, list[int]] = {}  # name -> ids of its reads
        self.nested: list[cst.BaseSuite] = []

    def walk(self, root: cst.CSTNode) -> None:
        stack = [root]
        while stack:
            node = stack.pop()
            kind = type(node)
            if kind is cst.FunctionDef or kind is cst.ClassDef:
                self.nested.append(node.body)  # type: ignore[attr-defined]
                continue
            if kind is cst.Lambda:
                continue
            if kind is cst.Call:
                arg = _example_argument(node)  # type: ignore[arg-type]
                if arg is not None:
                    self.examples.extend((_unchained(e), node.func) for e in _elements(arg))  # type: ignore[attr-defined]
            elif kind is cst.Assign:
                self._assign(node)  # type: ignore[arg-type]
            elif kind is cst.AssignTarget and type(node.target) is cst.Name:  # type: ignore[attr-defined]
                continue  # a bound name is no read
            elif kind is cst.Name:
                self.reads.setdefault(node.value, []).append(id(node))  # type: ignore[attr-defined]
            stack.extend(children(node))

    def _assign(self, node: cst.Assign) -> None:
        if len(node.targets) != 1 or type(node.targets[0].target) is not cst.Name:
            return
        name = node.targets[0].target.value  # type: ignore[attr-defined]
        value = _unchained(node.value)
        if type(value) is cst.Call:
            self.assigned.setdefault(name, []).append(value)
        elif type(value) is cst.Name and value.value == name:
            self.rebinds.add(id(value))  # `dummy = dummy.to(device)`


def _scope(body: Any, found: dict[int, list[Any]]) -> None:
    reads = _Reads()
    statements = body.body if isinstance(body, cst.BaseSuite) else body
    for statement in statements:
        reads.walk(statement)
    callees: dict[int, list[Any]] = {}  # id of an example part -> the callees taking it
    for part, func in reads.examples:
        callees.setdefault(id(part), []).append(func)
        if type(part) is cst.Call:
            found.setdefault(id(part), []).append(func)
    # a nested function or class may read the name as a global or a closure's
    inner = {n.value for body in reads.nested for n in descendants(body) if type(n) is cst.Name}  # type: ignore[attr-defined]
    for name, calls in reads.assigned.items():
        uses = reads.reads.get(name, [])
        if name not in inner and uses and all(u in callees or u in reads.rebinds for u in uses) and any(u in callees for u in uses):
            funcs = [f for u in uses for f in callees.get(u, ())]
            for call in calls:
                found.setdefault(id(call), []).extend(funcs)
    for nested in reads.nested:
        _scope(nested, found)
