"""Facts of the order rules: sets of strings iterated in order (RPL401) and directory
listings used in file-system order (RPL402).

:class:`OrderFacts` is the order family of the fact collector, composed of one mixin per
concept: :class:`~reprolint.analysis.set_order.SetOrderFacts` (sets of text, in
:mod:`reprolint.analysis.set_order`) and
:class:`~reprolint.analysis.listing_order.ListingOrderFacts` (listings, in
:mod:`reprolint.analysis.listing_order`). This module holds what both share: the
per-scope state (:class:`UsageScope`), the visitors for names, attributes, comparisons,
messages and comprehensions that mark which values' order is used, and the consumers
that use no order (:data:`UNORDERED`). The family records local facts
(:class:`~reprolint.analysis.facts.LocalFinding` with the fields its rule renders),
never messages.
"""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst

from reprolint.analysis.calls import environments
from reprolint.analysis.cst_helpers import children, descendants, self_attr, target_names
from reprolint.analysis.head_only import HeadOnly
from reprolint.analysis.listing_order import DRAW_CALLS, ListingOrderFacts, keeps_one_name
from reprolint.analysis.loop_bodies import PURE_BUILTINS
from reprolint.analysis.set_order import SetOrderFacts

__all__ = ["UNORDERED", "OrderFacts", "UsageScope"]

# Consumers that do not depend on the order of their argument.
UNORDERED = frozenset({
    "sorted", "len", "set", "frozenset", "sum", "max", "min", "any", "all",
    "collections.Counter", "Counter", "numpy.unique", "numpy.sort", "numpy.max", "numpy.min", "numpy.amax",
    "numpy.amin",
})


def _prints_words(call: cst.Call) -> bool:
    """A ``print`` whose arguments put words around the values (``print("found",
    files)``): a progress or log line."""
    return any(arg.keyword is None and _has_text(arg.value) for arg in call.args)


# Logger methods: a call of one only builds a message.
def _has_text(node: cst.BaseExpression) -> bool:
    """A string literal with words in it, an f-string with a literal part, or a
    ``"...".format(...)``/``"..." % x``/``"..." + x`` of one."""
    kind = type(node)  # type tests, not isinstance: see cst_helpers.CONCRETE
    if kind is cst.SimpleString:
        value = node.evaluated_value  # type: ignore[attr-defined]
        return isinstance(value, str) and any(ch.isalpha() for ch in value)
    if kind is cst.FormattedString:
        return any(
            type(part) is cst.FormattedStringText and any(ch.isalpha() for ch in part.value)  # type: ignore[attr-defined]
            for part in node.parts  # type: ignore[attr-defined]
        )
    if kind is cst.ConcatenatedString:
        return _has_text(node.left) or _has_text(node.right)  # type: ignore[attr-defined]
    if kind is cst.BinaryOperation:
        return _has_text(node.left) or _has_text(node.right)  # type: ignore[attr-defined]
    if kind is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "format":  # type: ignore[attr-defined]
        return _has_text(node.func.value)  # type: ignore[attr-defined]
    return False


_LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})


class UsageScope:
    """Per-scope state of the order analyses."""

    __slots__ = ("str_names", "str_iters", "str_nested", "str_sets", "empty_sets", "listings", "appended",
                 "json_names", "fresh_tensors", "unique_indices", "set_needs", "head_only")

    def __init__(self) -> None:
        self.fresh_tensors: set[str] = set()  # names bound to a tensor factory's result (no grad)
        self.unique_indices: set[str] = set()  # names bound to an index tensor with no repeated value
        self.json_names: set[str] = set()  # names bound to ``json.load(...)``/``json.loads(...)``
        self.str_names: set[str] = set()
        self.str_iters: set[str] = set()
        self.str_nested: set[str] = set()  # iterables of iterables of text (tokenised documents)
        self.str_sets: set[str] = set()
        # set name -> the parameters it is a set of text through (``set(labels)`` of a
        # parameter): its findings hold only where every call passes text
        self.set_needs: dict[str, frozenset[str]] = {}
        self.head_only = HeadOnly()  # what this body froze and left trainable (linear probing)
        self.empty_sets: set[str] = set()
        # name -> [listing call node, description, order used?, sorted in place?]
        self.listings: dict[str, list[Any]] = {}
        # list name -> [listing call node, description, sorted later?] (filled by a loop)
        self.appended: dict[str, list[Any]] = {}


class OrderFacts(SetOrderFacts, ListingOrderFacts):
    """The order family of the fact collector (mixed into it through ``UsageMixin``).

    Uses the collector's state helpers (``_u_state``, ``_u_states``, ``_u_finding``,
    ``_u_src``) and its per-module sets (``_u_unordered``, ``_u_claimed``, ``_u_store``,
    ``_u_attr_listings``).
    """

    _u_unordered: set[int]
    _u_claimed: set[int]
    _u_store: set[int]
    _u_attr_listings: dict[tuple[str, str], list[Any]]

    def visit_Name(self, node: cst.Name) -> None:
        if id(node) in self._u_store:
            return
        # :meth:`_u_states` spelt out (this runs for every name): the scope's state
        # first, then the module's, both made before either is read
        scopes = self.scopes  # type: ignore[attr-defined]
        known = self._u_scopes
        current = known.get(id(scopes[-1])) or self._u_state(scopes[-1])
        if scopes[-1] is scopes[0]:
            states: tuple[UsageScope, ...] = (current,)
        else:
            states = (current, known.get(id(scopes[0])) or self._u_state(scopes[0]))
        for state in states:
            entry = state.listings.get(node.value) or state.appended.get(node.value)
            if entry is not None:
                if id(node) not in self._u_unordered and id(node) not in self._u_claimed:
                    self.u_order_used(entry, self.u_passed_use(entry[0], node))
                return

    def visit_Attribute(self, node: cst.Attribute) -> None:
        # `x.files` / `os.listdir` name an attribute, not the variable `files`/`listdir`
        self._u_store.add(id(node.attr))
        if node.attr.value in ("shape", "dtype"):
            environments.note_type_only(self.env_calls, node.value)  # type: ignore[attr-defined]  # `space.sample().shape`
        if not self._u_attr_listings:
            return
        attr = self_attr(node)
        if attr is None or id(node) in self._u_store:
            return
        key = (self.current_class() or "", attr)  # type: ignore[attr-defined]
        entry = self._u_attr_listings.get(key)
        if entry is not None and id(node) not in self._u_unordered and id(node) not in self._u_claimed:
            self.u_order_used(entry, self.u_passed_use(entry[0], node))

    def u_truth_test(self, test: cst.BaseExpression) -> None:
        """A value only tested for truth (an ``if``/``while``/conditional expression's
        test, an ``assert``, the operand of ``not`` or ``bool()``, through ``and``/``or``):
        whether a listing or a set is empty does not depend on its order (``if
        glob.glob(p):``, ``if not os.listdir(d):``). ``not`` and ``bool()`` test their
        operand wherever they are (visit_UnaryOperation, the listing's call hook)."""
        if type(test) is cst.BooleanOperation:
            self.u_truth_test(test.left)  # type: ignore[attr-defined]
            self.u_truth_test(test.right)  # type: ignore[attr-defined]
        else:
            self._u_unordered.add(id(test))

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if type(node.operator) is cst.Not:
            self.u_truth_test(node.expression)

    def visit_Assert(self, node: cst.Assert) -> None:
        # an assertion's test decides only whether the program stops there, and its value
        # is dropped: an order it compares (`assert os.listdir(a) == os.listdir(b)`)
        # reaches no result
        self._u_all_unordered(node.test)
        if node.msg is not None:
            self._u_all_unordered(node.msg)  # the failure's message, like an exception's

    def visit_Comparison(self, node: cst.Comparison) -> None:
        for comp in node.comparisons:
            if isinstance(comp.operator, (cst.In, cst.NotIn)):
                self._u_unordered.add(id(comp.comparator))
        if len(node.comparisons) == 1 and type(node.comparisons[0].operator) in (cst.Equal, cst.NotEqual):
            # `os.listdir(d) == 0`, `glob(p) != []`: compared with a number, None or an
            # empty literal, a listing is only tested (empty or not), in any order
            sides = (node.left, node.comparisons[0].comparator)
            for side, other in (sides, sides[::-1]):
                if type(other) in (cst.Integer, cst.List, cst.Tuple) and not getattr(other, "elements", ()) \
                        or (type(other) is cst.Name and other.value == "None"):
                    self._u_unordered.add(id(side))

    def _u_message_sink(self, node: cst.Call, qn: Optional[str], method: Optional[str]) -> None:
        """A call that only builds a warning or log message (``warnings.warn``, a logger's
        ``warning``/``info``/...): the order of a set or listing inside its arguments
        reaches no result, so everything in them is order-free. ``print`` is one when
        it prints words around the values (``print(f"found {files}")``, ``print("found",
        files)``): a progress or log line; a bare ``print(files)`` is one only where the same
        code prints words elsewhere (:meth:`_u_prints_words`), else not (what a program
        prints can be its output)."""
        sink = qn == "warnings.warn" or (qn or "").startswith("logging.") or (
            qn is None and method in _LOG_METHODS
        ) or (
            isinstance(node.func, cst.Name) and node.func.value == "print" and not self.is_local("print")  # type: ignore[attr-defined]
            and (_prints_words(node) or self._u_prints_words())
        )
        if sink:
            for arg in node.args:
                self._u_all_unordered(arg.value)

    def _u_prints_words(self) -> bool:
        """The current function (or the module's top-level code) also prints words
        (``print('Converting from', src, 'to', dst)``): its standard output is a log, so
        a bare ``print(files)`` there is one more log line."""
        scope = self.scope  # type: ignore[attr-defined]
        body = getattr(scope, "body", None) if scope.kind == "function" else self.module  # type: ignore[attr-defined]
        if body is None:
            return False
        memo: dict[int, bool] = self.__dict__.setdefault("_u_prints_words_memo", {})
        found = memo.get(id(body))
        if found is None:
            found = False
            todo = list(children(body))
            while todo and not found:
                node = todo.pop()
                kind = type(node)
                if kind in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
                    continue  # code of its own
                found = kind is cst.Call and type(node.func) is cst.Name and node.func.value == "print" \
                    and _prints_words(node)  # type: ignore[arg-type,attr-defined]
                todo.extend(children(node))
            memo[id(body)] = found
        return found

    def visit_Raise(self, node: cst.Raise) -> None:
        if node.exc is not None:
            self._u_all_unordered(node.exc)  # an exception's message

    def _u_all_unordered(self, node: cst.CSTNode) -> None:
        for child in descendants(node):
            self._u_unordered.add(id(child))

    def visit_ListComp(self, node: cst.ListComp) -> None:
        self._u_comprehension(node, ordered=True)

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> None:
        self._u_comprehension(node, ordered=True)

    def visit_DictComp(self, node: cst.DictComp) -> None:
        self._u_comprehension(node, ordered=not self._u_keyed_by_entry(node))

    def _u_keyed_by_entry(self, node: cst.DictComp) -> bool:
        """``{k: seg[k] for k in KEYS}``: a mapping keyed by each entry, whose value is
        computed from the entry and what does not change between entries (library calls
        that draw nothing: no draw, no counter, no method of a shared object, no call of
        the project): it holds the same pairs in any order, like the set it is made
        from; only iterating it later follows the order."""
        comp = node.for_in
        if comp.inner_for_in is not None or comp.ifs or type(comp.target) is not cst.Name \
                or type(node.key) is not cst.Name or node.key.value != comp.target.value:
            return False
        for call in descendants(node.value):
            if type(call) is not cst.Call:
                continue
            func = call.func  # type: ignore[attr-defined]
            if type(func) is cst.Name and func.value in PURE_BUILTINS and not self.is_local(func.value):  # type: ignore[attr-defined]
                continue
            qn = self.qualify(func)  # type: ignore[attr-defined]
            if qn is None or qn.startswith(DRAW_CALLS):
                return False  # a method of a shared object, a project function, a draw
        return True

    def visit_SetComp(self, node: cst.SetComp) -> None:
        self._u_comprehension(node, ordered=False)

    def _u_comprehension(self, node: Any, ordered: bool) -> None:
        unordered = not ordered or id(node) in self._u_unordered or (
            isinstance(node, (cst.ListComp, cst.GeneratorExp)) and keeps_one_name(node)
        ) or self._u_per_file_operations(node)
        claimed = id(node) in self._u_claimed
        comp = node.for_in
        state = self._u_state()
        while comp is not None:
            if unordered:
                self._u_unordered.add(id(comp.iter))
            elif claimed:
                self._u_claimed.add(id(comp.iter))
            elif self._u_kind(comp.iter) == "set" and id(comp.iter) not in self._u_claimed:
                self._u_claimed.add(id(comp.iter))
                self._u_finding("RPL401", comp.iter, expression=self._u_src(comp.iter), variant="comprehension",
                                of=self.u_set_key(comp.iter), **self.u_needs())
            iter_kind = self._u_kind(comp.iter)
            if isinstance(comp.target, cst.Name) and not self._u_assumed:
                if iter_kind in ("iter", "set", "str"):
                    state.str_names.add(comp.target.value)
                elif iter_kind == "iters":
                    state.str_iters.add(comp.target.value)
            for name_node in target_names(comp.target):
                self._u_store.add(id(name_node))
            comp = comp.inner_for_in
        self._u_comprehension_scope(node)

    def _u_comprehension_scope(self, node: Any) -> None:
        """A comprehension's targets are its own names: ``f`` in ``[Path(f) for f in
        self.files]`` is the comprehension's variable, not a listing held in an ``f``
        outside it. Only the first iterable is read in the enclosing scope."""
        if not any(state.listings for state in self._u_states()):
            return  # no listing held in a name here: nothing to shadow
        own: set[str] = set()
        comp = node.for_in
        while comp is not None:
            own.update(n.value for n in target_names(comp.target))
            comp = comp.inner_for_in
        outer = node.for_in.iter
        for child in children(node):
            if child is node.for_in:
                parts = [p for p in children(child) if p is not outer]
            else:
                parts = [child]
            for part in parts:
                for name in descendants(part):
                    if type(name) is cst.Name and name.value in own:
                        self._u_store.add(id(name))
