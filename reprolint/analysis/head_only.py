"""Linear probing: a program that freezes a whole model but its head and gives the
optimizer only the head's parameters trains no layer before the head, so no backward
kernel of the frozen layers runs (a cuDNN convolution's included; RPL302 asks).

Recognised, in one function (or module) body, in source order:

* the freeze of a whole module ``X``: ``for p in X.parameters(): p.requires_grad = False``
  (``requires_grad_(False)`` alike, ``named_parameters()`` too), maybe except listed
  parameter names (``if name not in ["fc.weight", "fc.bias"]:``: the head ``fc`` stays
  trainable; names formatted from the head's attribute, ``'%s.weight' % key``, keep a
  head too), and ``X.requires_grad_(False)``;
* a head left or made trainable: the attributes of those names, a loop over
  ``X.head.parameters()`` that sets ``requires_grad = True``, or a head replaced after
  the freeze by a layer built afresh (``X.fc = nn.Linear(num_ftrs, 2)``);
* the optimizer given only the head: ``filter(lambda p: p.requires_grad,
  X.parameters())`` (a name bound to it too) for a frozen ``X`` with a head left out,
  or ``Y.head.parameters()`` for a head attribute made trainable.

Anything else (another module's parameters, a parameter group list) is not head-only,
and a model frozen without a head (a diffusion script's ``vae.requires_grad_(False)``)
trains whatever the optimizer is given.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from reprolint.analysis.cst_helpers import attr_chain, find_argument

__all__ = ["HeadOnly"]


def _text(node: cst.BaseExpression) -> Optional[str]:
    """``model.head`` as written, for a name or an attribute chain on one."""
    chain = attr_chain(node)
    return ".".join(chain) if chain else None


def _parameters_of(node: cst.BaseExpression) -> Optional[str]:
    """``X.parameters()`` / ``X.named_parameters()`` -> the text of ``X``."""
    if type(node) is cst.Call and type(node.func) is cst.Attribute and not node.args \
            and node.func.attr.value in ("parameters", "named_parameters"):  # type: ignore[attr-defined]
        return _text(node.func.value)  # type: ignore[attr-defined]
    return None


def _sets_requires_grad(stmt: cst.BaseStatement, param: str) -> Optional[bool]:
    """The value a statement gives ``<param>.requires_grad`` (assignment or
    ``requires_grad_(...)``), or None when it is not such a statement."""
    if type(stmt) is not cst.SimpleStatementLine or len(stmt.body) != 1:
        return None
    small = stmt.body[0]
    if type(small) is cst.Assign and len(small.targets) == 1:
        target = small.targets[0].target
        if type(target) is cst.Attribute and target.attr.value == "requires_grad" and _text(target.value) == param:
            value = small.value
            if type(value) is cst.Name and value.value in ("True", "False"):
                return value.value == "True"
    if type(small) is cst.Expr and type(small.value) is cst.Call:
        call = small.value
        if type(call.func) is cst.Attribute and call.func.attr.value == "requires_grad_" \
                and _text(call.func.value) == param and len(call.args) == 1 \
                and type(call.args[0].value) is cst.Name and call.args[0].value.value in ("True", "False"):
            return call.args[0].value.value == "True"
    return None


# a kept parameter name built by formatting (`'%s.weight' % linear_keyword`): some head,
# its attribute not known
_FORMATTED = "?"


def _literal_names(node: cst.BaseExpression) -> Optional[list[str]]:
    """The parameter names of a list, tuple or set display of strings (literal, or
    formatted: ``_FORMATTED``), or None."""
    if type(node) not in (cst.List, cst.Tuple, cst.Set):
        return None
    names = []
    for element in node.elements:  # type: ignore[attr-defined]
        value = element.value
        if type(value) is cst.SimpleString:
            names.append(value.evaluated_value)
        elif _formatted(value):
            names.append(_FORMATTED)
        else:
            return None
    return names


def _formatted(node: cst.BaseExpression) -> bool:
    """A string built by formatting: an f-string, ``"..." % x``, ``"...".format(x)``."""
    if type(node) is cst.FormattedString:
        return True
    if type(node) is cst.BinaryOperation and type(node.operator) is cst.Modulo:
        return type(node.left) is cst.SimpleString
    return type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "format" \
        and type(node.func.value) is cst.SimpleString


class HeadOnly:
    """What one body froze and left trainable, and whether an optimizer call trains
    only a head (see the module's docstring)."""

    def __init__(self) -> None:
        # frozen module's text -> (head attributes kept, the branches the freeze sits in)
        self.frozen: dict[str, tuple[set[str], tuple[int, ...]]] = {}
        self.heads: set[str] = set()  # head attributes made trainable (`X.head`)
        self.filtered: dict[str, str] = {}  # name -> the module its `filter(requires_grad)` reads

    def note_loop(self, node: cst.For, where: tuple[int, ...]) -> None:
        """``for [name, ]p in X.[named_]parameters(): ...`` that sets requires_grad
        (``where``: the branches it sits in, as ids of their tests)."""
        module = _parameters_of(node.iter)
        targets = node.target.elements if type(node.target) is cst.Tuple else None  # type: ignore[attr-defined]
        param = targets[-1].value if targets else node.target
        name = targets[0].value if targets and len(targets) == 2 else None
        if module is None or type(param) is not cst.Name or type(node.body) is not cst.IndentedBlock:
            return
        body = list(node.body.body)
        if len(body) != 1:
            return
        stmt = body[0]
        value = _sets_requires_grad(stmt, param.value)
        if value is not None:
            if value is False:
                self.frozen[module] = (set(), where)
            elif "." in module:
                self.heads.add(module.rpartition(".")[2])  # `for p in model.head.parameters(): p.requires_grad = True`
            return
        # `if name not in ["fc.weight", "fc.bias"]: p.requires_grad = False`
        if type(stmt) is cst.If and stmt.orelse is None and type(name) is cst.Name \
                and type(stmt.test) is cst.Comparison and len(stmt.test.comparisons) == 1 \
                and type(stmt.test.comparisons[0].operator) is cst.NotIn and _text(stmt.test.left) == name.value \
                and type(stmt.body) is cst.IndentedBlock and len(stmt.body.body) == 1 \
                and _sets_requires_grad(stmt.body.body[0], param.value) is False:
            kept = _literal_names(stmt.test.comparisons[0].comparator)
            if kept:
                self.frozen[module] = ({k.partition(".")[0] for k in kept}, where)

    def note_call(self, node: cst.Call, where: tuple[int, ...]) -> None:
        """``X.requires_grad_(False)``: the whole of ``X`` frozen (no head kept)."""
        if type(node.func) is cst.Attribute and node.func.attr.value == "requires_grad_" and len(node.args) == 1 \
                and type(node.args[0].value) is cst.Name and node.args[0].value.value == "False":
            module = _text(node.func.value)
            if module is not None:
                self.frozen.setdefault(module, (set(), where))

    def note_replaced(self, target: cst.Attribute, value: cst.BaseExpression) -> None:
        """``X.fc = nn.Linear(num_ftrs, 2)`` after ``X`` was frozen whole: a layer built
        afresh requires grad, so that attribute is a head made trainable."""
        if type(value) is cst.Call and _text(target.value) in self.frozen:
            self.heads.add(target.attr.value)

    def note_assign(self, names: list[str], value: cst.BaseExpression) -> None:
        """``parameters = list(filter(lambda p: p.requires_grad, model.parameters()))``."""
        module = self._filtered(value)
        for name in names:
            if module is not None:
                self.filtered[name] = module
            else:
                self.filtered.pop(name, None)

    def _filtered(self, node: cst.BaseExpression) -> Optional[str]:
        if type(node) is cst.Call and type(node.func) is cst.Name and node.func.value in ("list", "tuple") and node.args:
            node = node.args[0].value
        if type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "filter" and len(node.args) == 2:
            test = node.args[0].value
            if type(test) is cst.Lambda and type(test.body) is cst.Attribute and test.body.attr.value == "requires_grad":
                return _parameters_of(node.args[1].value)
        if type(node) is cst.Name:
            return self.filtered.get(node.value)
        return None

    def trains_head_only(self, optimizer: cst.Call, where: tuple[int, ...]) -> bool:
        """The optimizer call is given only a head's parameters (first positional
        argument or ``params=``), and the freeze runs whenever it does (its branches are
        the optimizer's, or enclose them)."""
        argument = find_argument(optimizer, "params", 0)
        if argument is None:
            return False
        given = argument.value
        frozen = {m: kept for m, (kept, at) in self.frozen.items() if where[:len(at)] == at}
        module = self._filtered(given)
        if module is not None:
            return bool(frozen.get(module))  # a whole model frozen but a head left out
        source = _parameters_of(given)
        if source is None or "." not in source:
            return False
        head = source.rpartition(".")[2]
        return bool(frozen) and (head in self.heads or any(head in kept for kept in frozen.values()))
