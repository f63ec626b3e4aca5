"""`__main__` blocks that only check shapes: a model file's self-test.

    if __name__ == "__main__":
        net = ResNet18()
        y = net(torch.randn(2, 3, 32, 32))
        print(y.size())

What such a program shows depends on the shapes of what it computes, not on its values:
every statement binds a name, asserts, or prints only shapes, sizes, dtypes,
parameter counts and literals (`torchsummary.summary(model, (3, 32, 32))` too); a call
of a function the module defines (`test()`) counts when that function's body does the
same. Anything else (a save, a plot, a printed value, a call the module does not define,
a loop that trains) makes it a program whose output may depend on the values.
"""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst

from reprolint.analysis.op_usage import CHAINED_MODULE  # a built model's mode and device: no output

__all__ = ["shape_only_block", "shape_only_module"]

# What a value's shape is read through.
_SHAPE_ATTRIBUTES = frozenset({"shape", "dtype", "device", "ndim", "is_cuda", "requires_grad"})
_SHAPE_METHODS = frozenset({"size", "numel", "dim", "nelement", "count_params", "element_size"})
# Conversions that keep a shape a shape (`str(y.shape)`, `tuple(y.size())`). Not `len`:
# the length of a list a draw filtered is a value of that draw.
_SUMMARIES = frozenset({"str", "repr", "type", "int", "tuple", "list"})


def shape_only_block(module: Any, guard: Any) -> bool:
    """Whether the ``__main__`` block ``guard`` (an ``if`` of ``module``'s top level) only
    builds, asserts and prints shapes, and the rest of the module's top level only
    imports, defines and assigns (a call of a function the module defines is checked
    through its body, once)."""
    if guard.orelse is not None:
        return False
    for statement in module.body:
        if statement is guard or type(statement) in (cst.FunctionDef, cst.ClassDef):
            continue
        if type(statement) is not cst.SimpleStatementLine or not all(_quiet(small) for small in statement.body):
            return False
    test = _SelfTest({s.name.value: s for s in module.body if type(s) is cst.FunctionDef})
    return test.statements(guard.body) and test.shows  # a self-test shows or checks something


def shape_only_module(module: Any) -> bool:
    """Whether a module without a ``__main__`` block runs, besides imports, definitions and
    assignments, only calls of its own functions that are self-tests (``test()`` at the
    end of a model file that builds the model and prints its output's size)."""
    functions = {s.name.value: s for s in module.body if type(s) is cst.FunctionDef}
    test = _SelfTest(functions)
    called = False
    for statement in module.body:
        if type(statement) in (cst.FunctionDef, cst.ClassDef):
            continue
        if type(statement) is not cst.SimpleStatementLine:
            return False
        for small in statement.body:
            if _quiet(small):
                continue
            value = small.value if type(small) is cst.Expr else None
            if type(value) is not cst.Call or value.args or type(value.func) is not cst.Name \
                    or value.func.value not in functions or not test.function(value.func.value):
                return False
            called = True
    return called and test.shows


def _quiet(small: Any) -> bool:
    """A top-level statement that does no work of its own: an import, an assignment,
    a docstring."""
    kind = type(small)
    if kind in (cst.Import, cst.ImportFrom, cst.Assign, cst.AnnAssign, cst.Pass):
        return True
    return kind is cst.Expr and type(small.value) in (cst.SimpleString, cst.ConcatenatedString)


class _SelfTest:
    """One ``__main__`` block read as a self-test, through the module's functions it calls."""

    def __init__(self, functions: dict[str, Any]) -> None:
        self.functions = functions  # the module's top-level functions by name
        self.seen: set[str] = set()  # those already read
        self.shows = False  # an assert, a print or a summary met
        self.objects: set[str] = set()  # names bound to a constructed object (`model = Net(...).cuda()`)

    def statements(self, body: Any) -> bool:
        for statement in body.body if isinstance(body, cst.BaseSuite) else body:
            kind = type(statement)
            if kind is cst.SimpleStatementLine:
                if not all(self.small(small) for small in statement.body):
                    return False
            elif kind is cst.With:
                if not all(self.value(item.item) for item in statement.items) or not self.statements(statement.body):
                    return False
            elif kind in (cst.For, cst.If):
                head = statement.iter if kind is cst.For else statement.test
                if not self.value(head) or not self.statements(statement.body):
                    return False
                if statement.orelse is not None and not self.statements(statement.orelse.body):
                    return False
            else:
                return False
        return True

    def small(self, small: Any) -> bool:
        kind = type(small)
        if kind in (cst.Pass, cst.Import, cst.ImportFrom):
            return True
        if kind is cst.Assert:
            self.shows = True
            return True  # checks what it computed: no output of its values
        if kind is cst.Return:
            return small.value is None or self.value(small.value)  # a builder: `return FPN(...)`
        if kind in (cst.Assign, cst.AnnAssign, cst.AugAssign):
            if kind is cst.Assign and len(small.targets) == 1 and type(small.targets[0].target) is cst.Name:
                name = small.targets[0].target.value
                (self.objects.add if _constructed(small.value) else self.objects.discard)(name)
            return small.value is None or self.value(small.value)
        if kind is not cst.Expr or type(small.value) is not cst.Call:
            return False
        call = small.value
        name = _callee_name(call.func)
        if name == "print":
            self.shows = True
            return all(_shape_like(arg.value) or (type(arg.value) is cst.Name and arg.value.value in self.objects)
                       for arg in call.args if arg.keyword is None)  # a model's repr: its layers
        if type(call.func) is cst.Attribute and name in CHAINED_MODULE and type(call.func.value) is cst.Name \
                and call.func.value.value in self.objects:
            return True  # `model.eval()`, `model.cuda()`: a mode or a device, no output
        if name == "summary":
            self.shows = True
            return True  # a model summary: its layers, output shapes and parameter counts
        return type(call.func) is cst.Name and call.func.value in self.functions and self.function(call.func.value)

    def value(self, node: Any) -> bool:
        """A value bound or tested: any expression, but a call of a function this module
        defines must itself be a self-test (`y = test()`)."""
        for child in _calls(node):
            if type(child.func) is cst.Name and child.func.value in self.functions and not self.function(child.func.value):
                return False
            if _callee_name(child.func) in ("save", "savefig", "imwrite", "imsave", "write", "dump", "to_csv", "backward", "step"):
                return False  # writes a file, or trains
        return True

    def function(self, name: str) -> bool:
        if name in self.seen:
            return True
        self.seen.add(name)
        definition = self.functions[name]
        return not definition.decorators and self.statements(definition.body)




def _constructed(node: Any) -> bool:
    """A class's new object (a call of a CapWords name, not a tensor constructor such as
    `torch.FloatTensor(...)`), through mode and device methods (`Net(...).cuda().eval()`)."""
    while type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in CHAINED_MODULE:
        node = node.func.value
    if type(node) is not cst.Call:
        return False
    name = _callee_name(node.func) or ""
    return name[:1].isupper() and not name.endswith("Tensor") and not name.isupper()


def _calls(node: Any) -> list[cst.Call]:
    from reprolint.analysis.cst_helpers import descendants

    return [n for n in descendants(node) if type(n) is cst.Call]


def _callee_name(func: Any) -> Optional[str]:
    if type(func) is cst.Name:
        return str(func.value)
    if type(func) is cst.Attribute:
        return str(func.attr.value)
    return None


def _shape_like(node: Any) -> bool:
    """An expression whose value is a shape, a size, a count or a literal."""
    kind = type(node)
    if kind in (cst.SimpleString, cst.Integer, cst.Float, cst.ConcatenatedString):
        return True
    if kind is cst.FormattedString:
        return all(
            _shape_like(part.expression) for part in node.parts if type(part) is cst.FormattedStringExpression
        )
    if kind is cst.Attribute:
        return node.attr.value in _SHAPE_ATTRIBUTES
    if kind is cst.Subscript:
        return _shape_like(node.value)
    if kind in (cst.Tuple, cst.List):
        return all(_shape_like(e.value) for e in node.elements)
    if kind is cst.BinaryOperation:
        return _shape_like(node.left) and _shape_like(node.right)
    if kind is cst.Call:
        name = _callee_name(node.func)
        if type(node.func) is cst.Attribute and name in _SHAPE_METHODS:
            return True
        if name == "sum" and node.args and type(node.args[0].value) is cst.GeneratorExp:
            return _shape_like(node.args[0].value.elt)
        if name in _SUMMARIES:
            return all(_shape_like(a.value) for a in node.args)
    return False
