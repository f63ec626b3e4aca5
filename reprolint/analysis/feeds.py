"""Which top-level NumPy and `random` draws of a notebook feed nothing that matters.

Notebooks illustrate: `x = np.random.random((64, 3, 32, 10))` to show broadcasting, a
toy NumPy RNN, a shuffled copy of the test labels for a random-baseline accuracy. Those
draws decide no trained model and no file. A name-level data flow over the notebook's
top-level statements, in order, tells them apart from draws that do matter:

* a draw taints the names its statement assigns (`x = np.random.rand(3)`), or the
  names an in-place draw shuffles (`np.random.shuffle(idx)`);
* a statement that reads a tainted name taints what it assigns (`data = data[idx]`),
  the loop variable it iterates with, and the receiver of a method it calls on it
  (`rows.append(x)`); assigning a value that reads no tainted name clears the name;
* a draw *matters* when a tainted name (or the draw itself) reaches a sink: a training
  or output call (`fit`, `train_on_batch`, `backward`, `apply_gradients`, `save`,
  `dump`, `write`...), a function of the notebook that trains, a call the analysis
  cannot see into (a project helper, an unknown library), or a function body that
  reads the name as a global.

Only draws written in the notebook's top-level code are judged; draws inside functions
and classes always count. Anything the flow cannot follow counts as a use.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Mapping, Optional

import libcst as cst

from reprolint.analysis.cst_helpers import children as _children
from reprolint.analysis.usage_events import TrainStep

__all__ = ["draws_feeding_nothing"]

# Calls whose arguments or receiver decide a trained model or a kept file.
_SINK_NAMES = frozenset({
    "fit", "fit_generator", "train_on_batch", "partial_fit", "learn", "train", "train_step",
    "backward", "step", "gradient", "apply_gradients", "minimize",
    "save", "savez", "savez_compressed", "savetxt", "dump", "dumps", "write", "writelines",
    "to_csv", "to_json", "to_parquet", "save_pretrained", "push_to_hub", "imwrite", "imsave",
})
# Libraries whose calls compute values (followed: their result carries the taint).
_LIBRARIES = frozenset({
    "numpy", "tensorflow", "keras", "torch", "math", "matplotlib", "pandas", "scipy",
    "sklearn", "PIL", "copy", "random", "itertools", "functools", "collections", "IPython",
    "tqdm", "time", "os", "string", "statistics",
})
# Builtins that compute or show values.
_BUILTINS = frozenset({
    "print", "len", "range", "enumerate", "zip", "list", "tuple", "dict", "set", "sorted",
    "min", "max", "sum", "abs", "round", "int", "float", "str", "repr", "type", "isinstance",
    "reversed", "map", "filter", "any", "all", "iter", "next", "display", "format",
})


def _names(node: cst.CSTNode) -> Iterator[str]:
    """Names read anywhere in an expression (not attribute names)."""
    stack: list[cst.CSTNode] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, cst.Name):
            yield item.value
        elif isinstance(item, cst.Attribute):
            stack.append(item.value)
        elif isinstance(item, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        else:
            stack.extend(_children(item))


def _calls(node: cst.CSTNode) -> Iterator[cst.Call]:
    stack: list[cst.CSTNode] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, cst.Call):
            yield item
        if not isinstance(item, (cst.FunctionDef, cst.ClassDef)):
            stack.extend(_children(item))


def _targets(node: cst.BaseExpression) -> list[str]:
    """Names a target binds or changes (`x`, `a, b`, `arr[i]`, `obj.attr` -> its base)."""
    if isinstance(node, cst.Name):
        return [node.value]
    if isinstance(node, (cst.Tuple, cst.List)):
        return [n for e in node.elements for n in _targets(e.value)]
    if isinstance(node, cst.StarredElement):
        return _targets(node.value)
    if isinstance(node, (cst.Subscript, cst.Attribute)):
        return _targets(node.value)
    return []


def _statements(body: Iterable[cst.CSTNode]) -> Iterator[cst.CSTNode]:
    """Top-level statements in order, entering compound statements (not defs)."""
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            yield from statement.body
        elif isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            continue
        elif isinstance(statement, (cst.For, cst.While, cst.If, cst.With, cst.Try)):
            yield statement  # the header (loop target, condition, context managers)
            blocks = [statement.body]
            orelse = getattr(statement, "orelse", None)
            while orelse is not None:
                blocks.append(orelse.body)
                orelse = getattr(orelse, "orelse", None)
            for handler in getattr(statement, "handlers", ()):
                blocks.append(handler.body)
            final = getattr(statement, "finalbody", None)
            if final is not None:
                blocks.append(final.body)
            for block in blocks:
                yield from _statements(block.body if isinstance(block, cst.IndentedBlock) else [block])


def runs_training(functions: Mapping[str, Any]) -> Callable[[str], bool]:
    """Whether the function (or class) of a name, among a module's ``functions``, runs a
    training step in its own body or a method's."""

    def trains(name: str) -> bool:
        return any(
            isinstance(e, TrainStep)
            for qualname, fn in functions.items() if qualname == name or qualname.startswith(name + ".")
            for e in fn.events
        )

    return trains


def draws_feeding_nothing(
    module: cst.Module,
    draw_nodes: set[int],
    qualify: Callable[[cst.BaseExpression], Optional[str]],
    trains: Callable[[str], bool],
) -> set[int]:
    """Ids of the top-level draw calls (of ``draw_nodes``) that reach no sink.

    ``qualify`` gives a call's qualified name; ``trains(name)`` says whether a function
    defined at the notebook's top level runs a training step."""
    taint: dict[str, set[int]] = {}
    ever: dict[str, set[int]] = {}
    used: set[int] = set()
    seen: set[int] = set()
    local_functions = {
        s.name.value for s in module.body if isinstance(s, (cst.FunctionDef, cst.ClassDef))
    }

    def carried(node: cst.CSTNode) -> set[int]:
        out = {id(c) for c in _calls(node) if id(c) in draw_nodes}
        seen.update(out)
        for name in _names(node):
            out |= taint.get(name, set())
        return out

    def mark(names: Iterable[str], draws: set[int], clear: bool) -> None:
        for name in names:
            if draws:
                taint[name] = set(draws) if clear else taint.get(name, set()) | draws
                ever.setdefault(name, set()).update(draws)
            elif clear:
                taint.pop(name, None)

    def sinks(node: cst.CSTNode) -> None:
        for call in _calls(node):
            func = call.func
            last = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
            involved = set()
            for arg in call.args:
                involved |= carried(arg.value)
            receiver = func.value if isinstance(func, cst.Attribute) else None
            if receiver is not None:
                involved |= carried(receiver)
            if not involved:
                continue
            qualified = qualify(func) or ""
            root = qualified.split(".")[0]
            if last in _SINK_NAMES:
                used.update(involved)
            elif isinstance(func, cst.Name) and func.value in local_functions:
                if trains(func.value):
                    used.update(involved)
            elif isinstance(func, cst.Name) and func.value in _BUILTINS:
                continue
            elif receiver is not None and not qualified:
                continue  # a method of a value (`x.mean()`, `rows.append(x)`, `model(x)`)
            elif root not in _LIBRARIES:
                used.update(involved)  # a helper the flow cannot see into

    for statement in _statements(module.body):
        if isinstance(statement, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            value = statement.value
            if value is None:
                continue
            sinks(value)
            draws = carried(value)
            targets = [t.target for t in statement.targets] if isinstance(statement, cst.Assign) else [statement.target]
            for target in targets:
                whole = isinstance(target, (cst.Name, cst.Tuple, cst.List)) and not isinstance(statement, cst.AugAssign)
                mark(_targets(target), draws, clear=whole)
                if not isinstance(target, cst.Name):
                    sinks(target)
        elif isinstance(statement, cst.Expr):
            sinks(statement.value)
            value = statement.value
            if isinstance(value, cst.Call):
                draws = carried(value)
                if id(value) in draw_nodes:  # np.random.shuffle(idx): shuffles its argument
                    mark([n for a in value.args for n in _targets(a.value)], {id(value)}, clear=False)
                elif isinstance(value.func, cst.Attribute) and draws:  # rows.append(x)
                    mark(_targets(value.func.value), draws, clear=False)
        elif isinstance(statement, cst.For):
            sinks(statement.iter)
            mark(_targets(statement.target), carried(statement.iter), clear=True)
        elif isinstance(statement, (cst.While, cst.If)):
            sinks(statement.test)
        elif isinstance(statement, cst.With):
            for item in statement.items:
                sinks(item.item)
        elif isinstance(statement, (cst.Return, cst.Raise, cst.Assert, cst.Del, cst.Global, cst.Nonlocal)):
            continue
        elif isinstance(statement, cst.CSTNode) and not isinstance(statement, (cst.Try, cst.Pass, cst.Break, cst.Continue, cst.Import, cst.ImportFrom)):
            for name_draws in (carried(statement),):
                used.update(name_draws)  # a statement the flow does not model: a use
    # A function or class body that reads a tainted name as a global uses it.
    for definition in module.body:
        if isinstance(definition, (cst.FunctionDef, cst.ClassDef)):
            for name in _globals_read(definition):
                used.update(ever.get(name, set()))
    return {d for d in seen if d not in used}


def _globals_read(definition: cst.CSTNode) -> set[str]:
    """Names a function or class reads that it neither takes as parameters nor assigns."""
    read: set[str] = set()
    bound: set[str] = set()
    stack: list[cst.CSTNode] = [definition]
    while stack:
        item = stack.pop()
        if isinstance(item, cst.Param):
            bound.add(item.name.value)
            if item.default is not None:
                stack.append(item.default)
            continue
        if isinstance(item, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)):
            target = item.target
            bound.update(n for n in _targets(target) if isinstance(target, (cst.Name, cst.Tuple, cst.List)))
        if isinstance(item, (cst.For, cst.CompFor)):
            bound.update(_targets(item.target))
        if isinstance(item, cst.Name):
            read.add(item.value)
        elif isinstance(item, cst.Attribute):
            stack.append(item.value)
            continue
        stack.extend(_children(item))
    return read - bound
