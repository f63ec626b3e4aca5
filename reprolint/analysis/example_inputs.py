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

__all__ = ["DiscardedForward", "example_only_calls", "is_example_function"]

# Functions whose argument at (position, keyword) is an example input, by their last name.
_EXAMPLE_FUNCTIONS = {
    "export": ((1, "args"), frozenset({"torch.onnx.export", "torch.export.export"})),
    "_export": ((1, "args"), frozenset({"torch.onnx._export"})),  # (torch < 1.13's private spelling)
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

# Methods that set a model up, as statements (`model.eval()`), or return it moved.
_SETUP = _CHAINED | {"eval", "train"}
# What a result tells of its input's shape only (`print(output.shape)`).
_SHAPES = frozenset({"shape", "size", "dtype", "device", "ndim"})


class DiscardedForward:
    """The callee of a model run on the value whose output is dropped or read only for
    its shape (``output = model(img)`` ending a ``__main__`` smoke test; a warm-up
    ``model(example_input)`` before export): its values reach no result. ``model`` is a
    variable or parameter of the scope, not a function of the module or a library."""

    def __init__(self, func: cst.BaseExpression) -> None:
        self.func = func


def example_only_calls(module: cst.Module) -> tuple[dict[int, list[Any]], set[int]]:
    """id of each call whose value may reach nothing but example inputs -> the callees
    (``func`` expressions) it reaches them through; it is one where each of those is an
    example function (:func:`is_example_function`, asked when the imports before the
    call are known). Such a call is written as the example argument (or an element of its
    tuple), or assigned to a name that the same function (or the module's top level)
    reads only there and in ``name = name.to(...)``.

    Also (second): the ids of the calls that build a model only ever run for nothing:
    the value is bound to a name read only to run it on something whose output is
    dropped or read for its shape (a ``__main__`` smoke test: ``model = get_model(13)``,
    ``model(torch.rand(6, 9, 2048))``), to set it up (``model.eval()``) or move it: the
    weights it draws reach no result."""
    found: dict[int, list[Any]] = {}
    idle: set[int] = set()
    _scope(module.body, found, idle=idle)
    return found, idle


def is_example_function(func: Any, qualify: Qualify) -> bool:
    """Whether the callee ``func`` (from :func:`example_only_calls`) takes an example input
    where the call was found: a method such as ``add_graph``, or a function that
    ``qualify`` names as one of the table's."""
    if type(func) is DiscardedForward:
        return True
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
        self.nested: list[tuple[cst.BaseSuite, frozenset[str]]] = []  # (body, its parameters)
        self.run_on: dict[int, cst.Call] = {}  # id of a Name read -> `var(name)`, a call of a variable on it
        self.dropped: set[int] = set()  # ids of calls whose value their statement drops
        self.results: dict[int, str] = {}  # id of a call -> the one name its value is bound to
        self.shape_reads: set[int] = set()  # ids of Name reads in `name.shape`, `name.size()`
        self.callee_reads: dict[int, cst.Call] = {}  # id of a Name read -> the call it is the callee of
        self.setup_reads: set[int] = set()  # ids of Name reads in `model.eval()` as a statement

    def walk(self, root: cst.CSTNode) -> None:
        stack = [root]
        while stack:
            node = stack.pop()
            kind = type(node)
            if kind is cst.FunctionDef:
                params = node.params  # type: ignore[attr-defined]
                names = frozenset(p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params))
                self.nested.append((node.body, names))  # type: ignore[attr-defined]
                continue
            if kind is cst.ClassDef:
                self.nested.append((node.body, frozenset()))  # type: ignore[attr-defined]
                continue
            if kind is cst.Lambda:
                continue
            if kind is cst.Call:
                arg = _example_argument(node)  # type: ignore[arg-type]
                if arg is not None:
                    self.examples.extend((_unchained(e), node.func) for e in _elements(arg))  # type: ignore[attr-defined]
                if type(node.func) is cst.Name:  # type: ignore[attr-defined]
                    self.callee_reads[id(node.func)] = node  # type: ignore[attr-defined,assignment]
                    for given in node.args:  # type: ignore[attr-defined]
                        value = _unchained(given.value)
                        if given.keyword is None and not given.star and type(value) is cst.Name:
                            self.run_on[id(value)] = node  # type: ignore[assignment]
            elif kind is cst.Expr and type(node.value) is cst.Call:  # type: ignore[attr-defined]
                self.dropped.add(id(node.value))  # type: ignore[attr-defined]
                func = node.value.func  # type: ignore[attr-defined]
                if type(func) is cst.Attribute and func.attr.value in _SETUP and type(func.value) is cst.Name:
                    self.setup_reads.add(id(func.value))  # `model.eval()`
            elif kind is cst.Attribute and node.attr.value in _SHAPES and type(node.value) is cst.Name:  # type: ignore[attr-defined]
                self.shape_reads.add(id(node.value))  # type: ignore[attr-defined]
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
        if type(node.value) is cst.Call:
            self.results[id(node.value)] = name
        value = _unchained(node.value)
        if type(value) is cst.Call:
            self.assigned.setdefault(name, []).append(value)
        elif type(value) is cst.Name and value.value == name:
            self.rebinds.add(id(value))  # `dummy = dummy.to(device)`


def _scope(body: Any, found: dict[int, list[Any]], params: frozenset[str] = frozenset(), *, idle: set[int]) -> None:
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
    free = set().union(*(_free_names(body, names) for body, names in reads.nested))
    def run_for_nothing(call: cst.Call) -> bool:
        # `output = model(img)` never read again, or only as `output.shape`; `model(x)` as a
        # statement: a model (a variable of the scope, or a parameter) run for nothing
        model = call.func.value  # type: ignore[attr-defined]
        result = reads.results.get(id(call))
        return (model in reads.assigned or model in params) and (
            id(call) in reads.dropped or (result is not None and result not in free and all(
                u in reads.shape_reads for u in reads.reads.get(result, ())
            ))
        )

    for read, call in reads.run_on.items():
        if run_for_nothing(call):
            callees.setdefault(read, []).append(DiscardedForward(call.func))
    for name, calls in reads.assigned.items():
        uses = reads.reads.get(name, [])
        runs = [reads.callee_reads[u] for u in uses if u in reads.callee_reads]
        if name not in free and runs and all(
            u in reads.rebinds or u in reads.setup_reads or (u in reads.callee_reads and run_for_nothing(reads.callee_reads[u]))
            for u in uses
        ):
            idle.update(id(call) for call in calls)
    for name, calls in reads.assigned.items():
        uses = reads.reads.get(name, [])
        if name not in free and uses and all(u in callees or u in reads.rebinds for u in uses) and any(u in callees for u in uses):
            funcs = [f for u in uses for f in callees.get(u, ())]
            for call in calls:
                found.setdefault(id(call), []).extend(funcs)
    for nested, names in reads.nested:
        _scope(nested, found, names, idle=idle)


def _free_names(body: cst.CSTNode, params: frozenset[str]) -> set[str]:
    """The names a nested function's (or class's) body reads that it does not bind
    itself: those it may read from the scope around it (``outputs = []`` in a model's
    ``forward`` is its own ``outputs``, not the ``__main__`` block's)."""
    bound = set(params)
    for node in descendants(body):
        if type(node) in (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor):
            target = node.target  # type: ignore[attr-defined]
            bound.update(n.value for n in descendants(target) if type(n) is cst.Name)
            if type(target) is cst.Name:
                bound.add(target.value)
        elif type(node) is cst.FunctionDef:
            bound.update(p.name.value for p in node.params.params)
        elif type(node) in (cst.Global, cst.Nonlocal):
            return {n.value for n in descendants(body) if type(n) is cst.Name}
    return {n.value for n in descendants(body) if type(n) is cst.Name and n.value not in bound}
