"""Whether a value only reaches a figure: the listing whose order picks which images a
notebook shows (``os.listdir(d)[:4]`` joined into paths, opened with PIL, drawn with
``imshow``) decides what is displayed, not what is computed (RPL402).

The value is followed forward through the expressions that carry it (an index, a
comprehension over it, a path join, an image reader, a conversion, a method of the value
itself) and through the names it is bound to, until every use ends in a call that draws
(matplotlib, seaborn, or an object one of their calls made: ``_, axes = plt.subplots()``
then ``axes[i].imshow(...)``). Any other end -- a call of the project, a trainer, a
file written, a ``return``, a value dropped -- and the value is taken to reach a result.
A name is followed from the statement that binds it to the next statement of the same
block that rebinds it, so a notebook that reuses ``x`` for its training data later keeps
the two apart.
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from reprolint.analysis.cst_helpers import chain_root, children, descendants, target_names

__all__ = ["ShownOnly"]

# Libraries that draw (their image readers excepted: see _CARRIERS).
_DRAWING = ("matplotlib.", "seaborn.")
_READERS = frozenset({"matplotlib.pyplot.imread", "matplotlib.image.imread"})

# Calls whose result is the value they are given, read, converted or re-shaped: an
# image loaded from a path, a path joined, an array made of an image. What they return
# is what the file holds, not something computed from the order of the files.
_CARRIERS = (
    "os.path.", "PIL.", "cv2.imread", "cv2.cvtColor", "cv2.resize", "imageio.", "skimage.io.",
    "keras.preprocessing.image.", "tensorflow.keras.preprocessing.image.",
    "keras.utils.load_img", "keras.utils.img_to_array", "keras.utils.array_to_img",
    "tensorflow.keras.utils.load_img", "tensorflow.keras.utils.img_to_array", "tensorflow.keras.utils.array_to_img",
    "numpy.array", "numpy.asarray", "numpy.expand_dims", "torchvision.io.read_image",
    "tensorflow.cast", "tensorflow.image.convert_image_dtype",
) + tuple(_READERS)
_BUILTIN_CARRIERS = frozenset({"str", "int", "float", "list", "tuple", "enumerate", "zip", "range", "reversed", "open"})

# Expressions that hand on the value of the child they hold.
_CARRYING = (
    cst.Subscript, cst.SubscriptElement, cst.Index, cst.Slice, cst.Attribute, cst.Arg,
    cst.BinaryOperation, cst.List, cst.Tuple, cst.Element, cst.StarredElement, cst.ListComp,
    cst.GeneratorExp, cst.CompFor, cst.FormattedString, cst.FormattedStringExpression,
)

_Scope = cst.CSTNode  # a Module or a FunctionDef: the body whose statements are walked


class ShownOnly:
    """Answers :meth:`of` for the expressions of one module (``qualify`` resolves a callee
    through the module's imports)."""

    def __init__(self, module: cst.Module, qualify: Callable[[cst.BaseExpression], Optional[str]]) -> None:
        self.module = module
        self.qualify = qualify
        self.parents: dict[int, cst.CSTNode] = {}
        stack: list[cst.CSTNode] = [module]
        while stack:
            node = stack.pop()
            for child in children(node):
                self.parents[id(child)] = node
                stack.append(child)
        self._drawing_names: dict[tuple[str, str], bool] = {}
        self._assigned: Optional[dict[str, list[cst.BaseExpression]]] = None  # name -> values bound to it

    def of(self, node: cst.BaseExpression) -> bool:
        """Whether every use of ``node``'s value ends in a drawing call."""
        return self._flows(node, set())

    def draws(self, call: cst.Call) -> bool:
        """Whether ``call`` draws: a plotting library's call (not one of its image
        readers), or a method of an object one of its calls made (``axes[i].imshow``)."""
        return self._draws(call)

    # -------------------------------------------------------------- following a value
    def _flows(self, node: cst.CSTNode, following: set[tuple[int, str]], origin: str = "") -> bool:
        """Whether every use of ``node``'s value ends in a drawing call (``origin``: the
        name ``node`` reads, when it is one)."""
        child = node
        parent = self.parents.get(id(child))
        while parent is not None:
            kind = type(parent)
            if kind is cst.Call:
                if self._draws(parent):
                    return True
                if child is not parent.func and not self._carries(parent, origin):  # type: ignore[attr-defined]
                    return False
            elif kind is cst.Assign:
                targets = [t.target for t in parent.targets]  # type: ignore[attr-defined]
                return child is parent.value and self._names_shown(targets, parent, following)  # type: ignore[attr-defined]
            elif kind is cst.AugAssign:
                return child is parent.value and self._names_shown([parent.target], parent, following)  # type: ignore[attr-defined]
            elif kind is cst.For:
                return child is parent.iter and self._loop_shown(parent, following)  # type: ignore[arg-type]
            elif kind is cst.CompFor:
                if child is not parent.iter and child is not parent.target:  # type: ignore[attr-defined]
                    return False  # a condition of the comprehension: what it selects is computed
            elif kind not in _CARRYING:
                return False
            if kind in (cst.ListComp, cst.GeneratorExp) and not self._pure(parent.elt):  # type: ignore[attr-defined]
                return False
            child, parent = parent, self.parents.get(id(parent))
        return False

    def _carries(self, call: cst.Call, origin: str) -> bool:
        """Whether ``call`` hands on what its arguments hold (``origin``: the name being
        followed; a method of that name's value takes it in: ``x.reshape((1,) + x.shape)``)."""
        qn = self.qualify(call.func)
        if qn is not None:
            return qn.startswith(_CARRIERS) or (qn in _BUILTIN_CARRIERS and type(call.func) is cst.Name)
        func = call.func
        if type(func) is cst.Name:
            return False  # a function of the project: it may compute anything
        receiver = func.value if type(func) is cst.Attribute else None  # type: ignore[attr-defined]
        root = receiver
        while type(root) in (cst.Attribute, cst.Subscript):
            root = root.value  # type: ignore[union-attr]
        if origin and type(root) is cst.Name and root.value == origin:  # type: ignore[union-attr]
            return True
        # `datagen.flow(x)` of a `datagen = ImageDataGenerator(...)`: a method of a carrier
        return type(receiver) is cst.Name and self._bound_to(receiver, "carrier")  # type: ignore[arg-type]

    def _carrier_call(self, value: cst.BaseExpression) -> bool:
        if type(value) is not cst.Call:
            return False
        qn = self.qualify(value.func)  # type: ignore[attr-defined]
        return qn is not None and qn.startswith(_CARRIERS)

    def _pure(self, node: cst.CSTNode) -> bool:
        """A comprehension's element that only carries its entries (no call with effects)."""
        for part in descendants(node):
            if type(part) is cst.Call:
                qn = self.qualify(part.func)  # type: ignore[attr-defined]
                if qn is None or not (qn.startswith(_CARRIERS) or qn in _BUILTIN_CARRIERS):
                    return False
        return True

    def _names_shown(self, targets: list[cst.BaseExpression], statement: cst.CSTNode, following: set[tuple[int, str]]) -> bool:
        if not all(_only_names(target) for target in targets):
            return False  # an attribute or an item of something else: kept beyond this view
        window = self._window(statement)
        if window is None:
            return False
        names = [name.value for target in targets for name in target_names(target)]
        return all(self._name_shown(name, statement, window, following) for name in names)

    def _loop_shown(self, loop: cst.For, following: set[tuple[int, str]]) -> bool:
        if not _only_names(loop.target):
            return False
        names = [name.value for name in target_names(loop.target)]
        return all(self._name_shown(name, loop, [loop.body], following) for name in names)

    def _name_shown(self, name: str, binding: cst.CSTNode, window: list[cst.CSTNode], following: set[tuple[int, str]]) -> bool:
        key = (id(binding), name)
        if key in following:
            return True  # `x = x.reshape(...)`: decided where it was first followed
        following.add(key)
        uses = [
            n for part in window for n in ([part] if type(part) is cst.Name else descendants(part))
            if type(n) is cst.Name and n.value == name and not self._binds(n)  # type: ignore[attr-defined]
        ]
        return bool(uses) and all(self._flows(use, following, name) for use in uses)

    def _binds(self, name: cst.Name) -> bool:
        """``name`` is a target being bound (an assignment's, a loop's, a comprehension's)."""
        parent = self.parents.get(id(name))
        if type(parent) is cst.AssignTarget:
            return True
        if type(parent) is cst.AugAssign and parent.target is name:  # type: ignore[attr-defined]
            return True  # `names += [...]`: the old entries stay in the name, read on where it is
        if type(parent) in (cst.For, cst.CompFor) and parent.target is name:  # type: ignore[attr-defined]
            return True
        if type(parent) is cst.Element and type(self.parents.get(id(parent))) in (cst.Tuple, cst.List):
            holder = self.parents.get(id(self.parents.get(id(parent))))
            return type(holder) in (cst.AssignTarget, cst.For, cst.CompFor)
        return False

    def _window(self, statement: cst.CSTNode) -> Optional[list[cst.CSTNode]]:
        """The statements a value bound by ``statement`` may be read in: the rest of its
        block from ``statement`` on, up to the next statement of the block that binds the
        same names again (that one included: its value may read the old binding); a
        block left without one goes on after the statement that holds it (all of a
        loop's body: the next turn reads it too), up to the end of the function."""
        line: Optional[cst.CSTNode] = statement
        while line is not None and type(line) is not cst.SimpleStatementLine:
            line = self.parents.get(id(line))
        if line is None:
            return None
        bound = _bound_names(statement)
        window: list[cst.CSTNode] = [statement]
        current: cst.CSTNode = line
        while True:
            block = self.parents.get(id(current))
            body = list(getattr(block, "body", ())) if block is not None else []
            if current not in body:
                return None
            for later in body[body.index(current) + 1:]:
                window.append(later)
                if bound and bound <= _names_rebound(later):
                    return window
            if type(block) is cst.Module:
                return window
            holder = self.parents.get(id(block))  # the statement whose block this is
            if holder is None or type(holder) in (cst.FunctionDef, cst.ClassDef):
                return window  # a local ends with its function
            if type(holder) in (cst.For, cst.While):
                window.append(block)  # the next turn reads what this one bound
            if type(holder) in (cst.Else, cst.Finally, cst.ExceptHandler, cst.If):
                while type(holder) in (cst.Else, cst.Finally, cst.ExceptHandler) or (
                    type(holder) is cst.If and type(self.parents.get(id(holder))) is cst.If
                ):
                    holder = self.parents.get(id(holder))  # `elif`/`else`: up to the statement
                    if holder is None:
                        return None
            current = holder

    # -------------------------------------------------------------- drawing
    def _draws(self, call: cst.Call) -> bool:
        if type(call.func) is cst.Name and self.qualify(call.func) is None:
            return False  # a function of the project
        return self._drawing_value(call)

    def _drawing_value(self, value: cst.BaseExpression) -> bool:
        """Whether ``value`` is made by a plotting library's call, or by a method of (an item
        of) a name bound to such a value: the callee chain followed to its root."""
        root: cst.CSTNode = value
        while type(root) in (cst.Attribute, cst.Subscript, cst.Call):
            if type(root) is cst.Call:
                qn = self.qualify(root.func)  # type: ignore[attr-defined]
                if qn is not None:
                    return qn.startswith(_DRAWING) and qn not in _READERS
                root = root.func  # type: ignore[attr-defined]
            else:
                root = root.value  # type: ignore[attr-defined]
        return type(root) is cst.Name and self._bound_to(root, "drawing")  # type: ignore[arg-type]

    def _bound_to(self, name: cst.Name, kind: str) -> bool:
        """Whether every assignment in the module that binds ``name`` gives it a value of
        ``kind``: "drawing" (``_, axes = plt.subplots()``), "carrier" (``datagen =
        ImageDataGenerator(...)``); at least one such assignment."""
        key = (kind, name.value)
        known = self._drawing_names.get(key)
        if known is not None:
            return known
        self._drawing_names[key] = False  # a cycle through other names decides nothing
        if self._assigned is None:
            self._assigned = {}
            for assign in descendants(self.module):
                if type(assign) is cst.Assign:
                    for target in assign.targets:  # type: ignore[attr-defined]
                        for bound in target_names(target.target):
                            self._assigned.setdefault(bound.value, []).append(assign.value)  # type: ignore[attr-defined]
        # `ax = ax.ravel() if m > 1 else [ax]`: each value it may take (a branch, an item
        # of a list) made from the name's own object keeps its kind
        values = [leaf for v in self._assigned.get(name.value, []) for leaf in _alternatives(v)
                  if not _is_name(chain_root(leaf), name.value)]
        test = self._drawing_value if kind == "drawing" else self._carrier_call
        result = bool(values) and all(test(v) for v in values)
        self._drawing_names[key] = result
        return result


def _alternatives(value: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The values ``value`` may be or hold: both branches of ``a if c else b``, the items
    of a list or tuple written out."""
    if type(value) is cst.IfExp:
        return _alternatives(value.body) + _alternatives(value.orelse)  # type: ignore[attr-defined]
    if type(value) in (cst.List, cst.Tuple) and value.elements:  # type: ignore[attr-defined]
        return [leaf for e in value.elements for leaf in _alternatives(e.value)]  # type: ignore[attr-defined]
    return [value]


def _is_name(node: cst.CSTNode, name: str) -> bool:
    return type(node) is cst.Name and node.value == name  # type: ignore[attr-defined]


def _only_names(target: cst.BaseExpression) -> bool:
    """A target that binds names only (``a``, ``a, (b, *c)``), no attribute or item."""
    if type(target) is cst.Name:
        return True
    if type(target) in (cst.Tuple, cst.List):
        return all(_only_names(e.value) for e in target.elements)  # type: ignore[attr-defined]
    if type(target) is cst.StarredElement:
        return _only_names(target.value)  # type: ignore[attr-defined]
    return False


def _bound_names(statement: cst.CSTNode) -> set[str]:
    """Names a plain assignment binds (``+=`` adds to what the name held: a later plain
    binding ends it)."""
    if type(statement) is cst.Assign:
        return {n.value for t in statement.targets for n in target_names(t.target)}  # type: ignore[attr-defined]
    return set()


def _names_rebound(statement: cst.CSTNode) -> set[str]:
    """Names a statement of the block binds again with a plain assignment of its own."""
    if type(statement) is not cst.SimpleStatementLine:
        return set()
    return {n for small in statement.body for n in _bound_names(small)}
