"""Facts of RPL401: sets of strings iterated in order (``for w in set(words)``,
``list(vocab)``, ``",".join(names)``), whose order changes from run to run with string
hashing.

:class:`SetOrderFacts` is the set half of the order family
(:class:`~reprolint.analysis.order_facts.OrderFacts`): it tells what kind of text value an
expression holds (text, an iterable of text, tokenised documents, a set of text), reports
the calls that take a set's order, and recognises the loops over a set whose order
reaches no result (each element handled on its own, a search at most one element passes).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import libcst as cst

from reprolint.analysis.cst_helpers import (
    descendants,
    enclosing_function,
    literal as _literal,
    mentions_of,
    self_attr,
    target_names,
)
from reprolint.analysis.listing_order import LISTINGS
from reprolint.analysis.loop_bodies import PURE_BUILTINS, module_function, touches_only

__all__ = ["SetOrderFacts"]

_ORDER_TAKERS = frozenset({"list", "tuple", "enumerate", "zip", "iter", "next", "reversed"})


_STR_METHODS = frozenset({
    "lower", "upper", "strip", "lstrip", "rstrip", "casefold", "title", "capitalize",
    "replace", "read", "decode", "format", "removeprefix", "removesuffix", "group",
})


_STR_ITER_METHODS = frozenset({"split", "rsplit", "splitlines", "readlines", "tokenize", "findall"})


_STR_ITER_FUNCS = frozenset({"re.findall", "re.split", "nltk.word_tokenize", "nltk.tokenize.word_tokenize"})


# Names that hold text tokens in the code people write (a documented heuristic).
_WORDY_NAMES = frozenset({
    "words", "tokens", "chars", "characters", "vocab", "vocabulary", "letters", "tags",
    "class_names", "label_names", "categories", "filenames", "sentences", "stopwords",
})


# NumPy functions that make an array from their data; a text dtype makes it an array of str.
_NUMPY_ARRAYS = frozenset({"numpy.array", "numpy.asarray", "numpy.loadtxt", "numpy.genfromtxt"})


def _text_dtype(node: cst.BaseExpression, qualify: Any) -> bool:
    """``str``, ``"str"``, ``"U"``/``"<U20"``, ``np.str_``, ``np.unicode_``, and
    ``np.dtype(...)`` of one: a text dtype."""
    if isinstance(node, cst.Call) and (qualify(node.func) or "") == "numpy.dtype" and len(node.args) == 1:
        return _text_dtype(node.args[0].value, qualify)
    if isinstance(node, cst.Name) and node.value == "str":
        return True
    if isinstance(node, cst.SimpleString):
        text = node.evaluated_value
        return isinstance(text, str) and (text in ("str", "unicode") or text.lstrip("<>=|").startswith("U"))
    return (qualify(node) or "") in ("numpy.str_", "numpy.unicode_", "numpy.str")


# Methods that read a str, dict or set (or return a new value) and change nothing else.
_PURE_METHODS = _STR_METHODS | _STR_ITER_METHODS | frozenset({
    "startswith", "endswith", "join", "items", "keys", "values", "get", "copy", "count", "index",
    "find", "rfind", "isdigit", "isnumeric", "isalpha", "partition", "rpartition", "add", "discard",
})


# Methods that grow something in call order (a list, a file, a queue).
_ORDERED_SINKS = frozenset({
    "append", "extend", "insert", "appendleft", "write", "writelines", "put", "send",
})


def _only_counts(body: Sequence[cst.BaseStatement]) -> bool:
    """A loop body that only counts: integer increments (``hits += 1``, ``ranks[-1] -= 2``)
    under tests that call nothing (``if (a, b) in pairs:``), and ``continue``/``pass``. The
    counts are sums of integers, the same in any order of the elements."""
    for stmt in body:
        if isinstance(stmt, cst.If):
            branches: list[Any] = [stmt.body]
            orelse = stmt.orelse
            while orelse is not None:
                branches.append(orelse.body)
                if isinstance(orelse, cst.If) and _calls(orelse.test):
                    return False
                orelse = orelse.orelse if isinstance(orelse, cst.If) else None
            if _calls(stmt.test) or not all(
                _only_counts(b.body) if isinstance(b, cst.IndentedBlock) else _small_counts(b.body)
                for b in branches
            ):
                return False
        elif not (isinstance(stmt, cst.SimpleStatementLine) and _small_counts(stmt.body)):
            return False
    return bool(body)


def _small_counts(statements: Sequence[cst.BaseSmallStatement]) -> bool:
    """Simple statements that only count: integer increments, ``continue``, ``pass``."""
    return all(
        isinstance(small, (cst.Continue, cst.Pass)) or (
            isinstance(small, cst.AugAssign)
            and isinstance(small.operator, (cst.AddAssign, cst.SubtractAssign))
            and isinstance(small.value, cst.Integer)
            and not _calls(small.target)
        )
        for small in statements
    )


def _calls(node: cst.CSTNode) -> bool:
    """Whether ``node`` holds a call (or a lambda, a comprehension that may call)."""
    return any(isinstance(n, (cst.Call, cst.Lambda, cst.Await, cst.Yield)) for n in descendants(node))


def _builds_in_order(function: cst.FunctionDef) -> bool:
    """Whether a function's effects depend on the order it is called in: it yields, grows
    a list or file (``append``, ``write``), prints, accumulates into a name (``n += x``),
    rebinds a global, or calls something whose effects are not known (a function that is
    not a pure builtin or the function itself, a method that is not a str/dict read)."""
    name = function.name.value
    for child in descendants(function.body):
        if isinstance(child, (cst.Yield, cst.Await, cst.Global, cst.Nonlocal)):
            return True
        if isinstance(child, cst.AugAssign) and not isinstance(child.target, cst.Subscript):
            return True
        if isinstance(child, cst.Call):
            func = child.func
            if isinstance(func, cst.Name):
                if func.value != name and func.value not in PURE_BUILTINS:
                    return True
            elif isinstance(func, cst.Attribute):
                if func.attr.value in _ORDERED_SINKS or (
                    func.attr.value not in _PURE_METHODS and self_attr(func) != name
                ):
                    return True
            else:
                return True
    return False


class SetOrderFacts:
    """Sets of text and the uses of their order (mixed into
    :class:`~reprolint.analysis.order_facts.OrderFacts`).

    Uses the collector's state helpers (``_u_state``, ``_u_states``, ``_u_finding``,
    ``_u_src``) and its per-module sets (``_u_unordered``, ``_u_claimed``).
    """

    _u_unordered: set[int]
    _u_claimed: set[int]

    def _u_kind(self, node: Optional[cst.BaseExpression], depth: int = 0) -> Optional[str]:
        """"str" (text), "iter" (iterable of text), "iters" (iterable of iterables of
        text: tokenised documents), "set" (set of text) or None."""
        if node is None or depth > 8:
            return None
        if depth == 0 and self._u_assumed:
            self._u_assumed.clear()
        kind = type(node)  # type tests, not isinstance: see cst_helpers.CONCRETE
        if kind is cst.SimpleString or kind is cst.ConcatenatedString or kind is cst.FormattedString:
            return "str"
        if kind is cst.Name:
            for state in self._u_states():
                for bucket, held in ((state.str_sets, "set"), (state.str_iters, "iter"),
                                     (state.str_nested, "iters"), (state.str_names, "str")):
                    if node.value in bucket:
                        # a kind that rests on what the callers pass (`keys =
                        # list(set(keys))` of a parameter) holds only where they pass text
                        self._u_assumed.update(state.set_needs.get(node.value, ()))
                        return held
            if node.value in _WORDY_NAMES:
                return "iter"
            return None
        if kind is cst.Subscript:
            inner = self._u_kind(node.value, depth + 1)  # type: ignore[attr-defined]
            if inner == "str":
                return "str"
            if inner == "iter" and len(node.slice) > 1:  # type: ignore[attr-defined]
                return "iter"  # `table[:, -1]`: only a NumPy array takes a tuple index; of text, text
            if inner in ("iter", "iters") and len(node.slice) == 1:  # type: ignore[attr-defined]
                # one element of an iterable of text is text (`line.split()[1]`,
                # `parts[-1]`); a slice keeps the kind (`tokens[:10]`). Only a literal
                # position: `vocab[word]` may be a dict lookup that gives an id
                index = node.slice[0].slice  # type: ignore[attr-defined]
                if isinstance(index, cst.Slice):
                    return inner
                position = _literal(index.value) if isinstance(index, cst.Index) else None
                if isinstance(position, int) and not isinstance(position, bool):
                    return "str" if inner == "iter" else "iter"
            return None
        if kind is cst.BinaryOperation:
            left = self._u_kind(node.left, depth + 1)
            right = self._u_kind(node.right, depth + 1)
            # a difference holds the left set's elements (``devices - {"cpu"}`` holds
            # whatever ``devices`` holds); an intersection, union or symmetric difference
            # holds text when either side does
            if isinstance(node.operator, cst.Subtract):
                if left == "set":
                    return "set"
            elif isinstance(node.operator, (cst.BitOr, cst.BitAnd, cst.BitXor)):
                if "set" in (left, right):
                    return "set"
            if isinstance(node.operator, cst.Add) and "str" in (left, right):
                return "str"
            return None
        if kind is cst.Set:
            if _one_element(node):
                return None  # `{" - "}`: one element has one order
            return "set" if any(self._u_kind(e.value, depth + 1) == "str" for e in node.elements) else None  # type: ignore[attr-defined]
        if kind is cst.List or kind is cst.Tuple:
            kinds = {self._u_kind(e.value, depth + 1) for e in node.elements}  # type: ignore[attr-defined]
            if kinds == {"str"}:
                return "iter"
            return "iters" if kinds and kinds <= {"iter", "set"} else None
        if kind is cst.SetComp:
            return "set" if self._u_elt_is_text(node, depth) else None
        if kind is cst.ListComp or kind is cst.GeneratorExp:
            elt = self._u_elt_kind(node, depth)
            return "iter" if elt == "str" else ("iters" if elt in ("iter", "set") else None)
        if kind is cst.Call:
            func = node.func  # type: ignore[attr-defined]
            qn = self.qualify(func)  # type: ignore[attr-defined]
            bare = func.value if isinstance(func, cst.Name) and not self.is_local(func.value) else None  # type: ignore[attr-defined]
            if bare in ("set", "frozenset"):
                if node.args and _one_element(node.args[0].value):
                    return None  # `set([" - "])`: one element has one order
                if node.args and self._u_kind(node.args[0].value, depth + 1) in ("str", "iter", "set"):
                    return "set"
                param = self._u_passed_param(node.args[0].value) if node.args else None
                if param is not None:
                    # `def encode_onehot(labels): classes = set(labels)`: a set of text
                    # where every call of the program passes text (TEXT_ARGUMENT)
                    self._u_assumed.add(param)
                    return "set"
                return None
            if bare == "str":
                return "str"
            if bare in ("list", "tuple", "sorted"):
                inner = self._u_kind(node.args[0].value, depth + 1) if node.args else None
                return "iter" if inner in ("iter", "set", "str") else ("iters" if inner == "iters" else None)
            if qn in _NUMPY_ARRAYS:
                return self._u_numpy_array_kind(node, qn, depth)
            if qn in _STR_ITER_FUNCS or qn in LISTINGS:
                return "iter"
            if isinstance(func, cst.Attribute):
                method = func.attr.value
                receiver_kind = self._u_kind(func.value, depth + 1)
                if method in ("union", "intersection", "difference", "symmetric_difference") and receiver_kind == "set":
                    return "set"
                if method == "keys" and isinstance(func.value, cst.Name) and self._u_is_json(func.value.value):
                    return "iter"  # the keys of a JSON object are strings
                if method in _STR_ITER_METHODS or method in ("rglob", "iterdir"):
                    return "iter"
                if method in _STR_METHODS and qn is None:
                    return "str"
                if method == "astype" and node.args and _text_dtype(node.args[0].value, self.qualify):  # type: ignore[attr-defined]
                    return "iter"  # `labels.astype(str)`: a NumPy array of str
                if method == "tolist" and receiver_kind in ("iter", "iters"):
                    return receiver_kind
                if method == "join" and receiver_kind == "str":
                    return "str"
            return None
        return None

    def _u_passed_param(self, node: cst.BaseExpression) -> Optional[str]:
        """``<function>.<parameter>`` when ``node`` is a parameter of the function being
        read, as its caller passed it (not rebound here), else None."""
        scope = self.scope  # type: ignore[attr-defined]
        if type(node) is not cst.Name or scope.kind != "function" or node.value not in scope.params \
                or node.value in scope.locals or node.value in ("self", "cls"):
            return None
        return f"{scope.name}{node.value}"

    def u_needs(self) -> dict[str, Any]:
        """The ``needs`` of an RPL401 finding: the parameters its set is text through,
        when the last kind read came from them (see :meth:`_u_passed_param`)."""
        return {"needs": sorted(self._u_assumed)} if self._u_assumed else {}

    def _u_elt_is_text(self, node: Any, depth: int) -> bool:
        return self._u_elt_kind(node, depth) == "str"

    def _u_elt_kind(self, node: Any, depth: int) -> Optional[str]:
        """The kind of a comprehension's element, with its targets bound: a target over
        text is text; over tokenised documents (`for d in docs`), an iterable of text, so
        `w for d in docs for w in d` is text."""
        state = self._u_state()
        saved_names, saved_iters = state.str_names.copy(), state.str_iters.copy()
        comp = node.for_in
        while comp is not None:
            if isinstance(comp.target, cst.Name):
                iter_kind = self._u_kind(comp.iter, depth + 1)
                if iter_kind in ("iter", "set", "str"):
                    state.str_names.add(comp.target.value)
                elif iter_kind == "iters":
                    state.str_iters.add(comp.target.value)
            comp = comp.inner_for_in
        result = self._u_kind(node.elt, depth + 1)
        state.str_names.clear()
        state.str_names.update(saved_names)
        state.str_iters.clear()
        state.str_iters.update(saved_iters)
        return result

    def _u_numpy_array_kind(self, node: cst.Call, qn: str, depth: int) -> Optional[str]:
        """``np.array(words)``, ``np.array(xs, dtype=str)``, ``np.loadtxt(f, dtype=str)``:
        a NumPy array of str (its elements are ``np.str_``, a ``str`` subclass hashed like
        ``str``), so a set of them is a set of text."""
        dtype = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "dtype"), None)
        if dtype is not None:
            return "iter" if _text_dtype(dtype, self.qualify) else None  # type: ignore[attr-defined]
        if qn in ("numpy.array", "numpy.asarray") and node.args and node.args[0].keyword is None:
            inner = self._u_kind(node.args[0].value, depth + 1)
            return inner if inner in ("iter", "iters") else ("iter" if inner == "set" else None)
        return None

    def _u_is_json(self, name: str) -> bool:
        return any(name in state.json_names for state in self._u_states())

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if isinstance(node.item, cst.Call) and isinstance(node.asname, cst.AsName):
            qn = self.qualify(node.item.func) or (  # type: ignore[attr-defined]
                node.item.func.value if isinstance(node.item.func, cst.Name) else ""
            )
            if qn in ("open", "io.open", "codecs.open") and isinstance(node.asname.name, cst.Name):
                self._u_state().str_iters.add(node.asname.name.value)

    def u_set_key(self, node: cst.BaseExpression) -> Optional[str]:
        """Which named set of text ``node`` is (``vocab`` bound in this function or at
        module level): the order-taking uses of one set are one cause, so RPL401 groups
        its findings by this key. None for any other expression."""
        if type(node) is not cst.Name:
            return None
        for scope in (self.scope, self.scopes[0]):  # type: ignore[attr-defined]
            if node.value in self._u_state(scope).str_sets:  # type: ignore[attr-defined]
                return f"{self._u_owners.index(scope)}:{node.value}"  # type: ignore[attr-defined]
        return None

    def _u_set_order_call(self, node: cst.Call, name: Optional[str], method: Optional[str]) -> None:
        if id(node) in self._u_unordered:
            for arg in node.args:
                self._u_unordered.add(id(arg.value))
            return
        func = node.func
        candidates: list[cst.BaseExpression] = []
        if name in _ORDER_TAKERS or name in ("numpy.array", "numpy.asarray", "torch.tensor", "dict.fromkeys"):
            candidates = [a.value for a in node.args if a.keyword is None]
        elif isinstance(func, cst.Attribute) and method == "fromkeys" and isinstance(func.value, cst.Name) and func.value.value == "dict":
            candidates = [node.args[0].value] if node.args else []
        elif method == "join" and node.args and isinstance(func, cst.Attribute) and self._u_kind(func.value) == "str":
            candidates = [node.args[0].value]
        elif method == "pop" and not node.args and isinstance(func, cst.Attribute):
            if self._u_kind(func.value) == "set":
                needs = self.u_needs()
                self._u_finding("RPL401", node, expression=self._u_src(node), variant="pop",
                                of=self.u_set_key(func.value), **needs)
            return
        for arg in candidates:
            if id(arg) in self._u_claimed:
                continue
            if self._u_kind(arg) == "set":
                self._u_claimed.add(id(arg))
                if name in ("list", "tuple") and self._u_sorted_next(node):
                    return  # `classes = list(set(...))`, then `classes.sort()`: sorted first
                needs = self.u_needs()
                self._u_finding(
                    "RPL401", node, expression=self._u_src(node),
                    function=name, of=self.u_set_key(arg), **needs,
                )
                return
        # set.add/update with text: the set holds text
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and method in ("add", "update"):
            var = func.value.value
            for state in self._u_states():
                if var in state.empty_sets and node.args:
                    arg_kind = self._u_kind(node.args[0].value)
                    if (method == "add" and arg_kind == "str") or (method == "update" and arg_kind in ("iter", "set", "str")):
                        state.empty_sets.discard(var)
                        state.str_sets.add(var)

    def _u_sorted_next(self, call: cst.Call) -> bool:
        """``classes = list(set(...))`` whose name the next statement that mentions it
        sorts in place (``classes.sort()``): the set's order is gone before any use."""
        body = self.scope.body if self.scope.kind == "function" else self.module  # type: ignore[attr-defined]
        for block in descendants(body):
            statements = getattr(block, "body", None)
            if not isinstance(statements, (list, tuple)) or isinstance(block, cst.SimpleStatementLine):
                continue
            for i, stmt in enumerate(statements):
                small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
                if not (isinstance(small, cst.Assign) and small.value is call and len(small.targets) == 1):
                    continue
                target = small.targets[0].target
                if not isinstance(target, cst.Name):
                    return False
                later = next((t for t in statements[i + 1:] if mentions_of(t, target.value)), None)
                line = later.body[0] if isinstance(later, cst.SimpleStatementLine) and len(later.body) == 1 else None
                sort = line.value if isinstance(line, cst.Expr) else None
                return (
                    isinstance(sort, cst.Call) and isinstance(sort.func, cst.Attribute)
                    and sort.func.attr.value == "sort" and isinstance(sort.func.value, cst.Name)
                    and sort.func.value.value == target.value
                )
        return False

    def _u_order_free_loop(self, node: cst.For) -> bool:
        """Each element is handled on its own, so the set's order reaches no result:

        * every statement of the body writes ``d[<loop variable>] = ...`` (each key
          converted independently), deletes ``del d[...]``, adds to a set, or calls the
          enclosing function again for the element (a recursion over each child,
          ``clean(tree, child)``) when that function builds nothing in order (no list
          growing, ``yield``, output, accumulation, unknown call), or calls a function of
          the module that changes nothing but what it is given of the element
          (``download_model(name)`` fetching one checkpoint: see
          :func:`~reprolint.analysis.loop_bodies.touches_only`);
        * or the loop is a search that at most one element can satisfy (see
          :meth:`_u_unique_match_loop`);
        * or it only counts (:func:`_only_counts`)."""
        names = {n.value for n in target_names(node.target)}
        if not names or not isinstance(node.body, cst.IndentedBlock):
            return False
        if self._u_unique_match_loop(node, names) or _only_counts(node.body.body):
            return True
        return self._u_order_free_statements(node, node.body.body, names)

    def _u_order_free_statements(self, node: cst.For, body: Sequence[cst.BaseStatement], names: set[str]) -> bool:
        """The statements of :meth:`_u_order_free_loop`'s body, each on its own element;
        also under an ``if`` that only tests (``if f"net.{name}" in params:``)."""
        for stmt in body:
            if isinstance(stmt, cst.If) and _only_tests(stmt.test) and isinstance(stmt.body, cst.IndentedBlock):
                orelse = stmt.orelse
                if not self._u_order_free_statements(node, stmt.body.body, names):
                    return False
                if isinstance(orelse, cst.Else) and isinstance(orelse.body, cst.IndentedBlock):
                    if not self._u_order_free_statements(node, orelse.body.body, names):
                        return False
                elif orelse is not None:
                    if not self._u_order_free_statements(node, [orelse], names):
                        return False
                continue
            if not isinstance(stmt, cst.SimpleStatementLine):
                return False
            for small in stmt.body:
                if isinstance(small, (cst.Assign, cst.AugAssign)):
                    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
                    if not all(
                        isinstance(t, cst.Subscript) and any(mentions_of(e.slice, n) for e in t.slice for n in names)
                        for t in targets
                    ):
                        return False
                elif isinstance(small, cst.Del):
                    if not isinstance(small.target, cst.Subscript):
                        return False
                elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
                    func = small.value.func
                    if isinstance(func, cst.Attribute) and func.attr.value in ("add", "discard"):
                        continue
                    if isinstance(func, cst.Name) and not self.is_local(func.value) and (  # type: ignore[attr-defined]
                        callee := module_function(self.module, func.value)  # type: ignore[attr-defined]
                    ) is not None and touches_only(callee, small.value, names, self.qualify, self.module):  # type: ignore[attr-defined]
                        continue  # `download(name)`: a function of the module that touches only the element
                    if not self._u_order_free_recursion(node, small.value, names):
                        return False
                else:
                    return False
        return True

    def _u_unique_match_loop(self, node: cst.For, names: set[str]) -> bool:
        """``for c in S: if x.startswith(c): ...; break``: the loop stops at the first
        element that passes the test. When at most one element can pass, the same element
        is found in any order: ``x == c`` (a set's elements are distinct), and
        ``x.startswith(c)``/``x.endswith(c)`` over literal strings none of which is a
        prefix (suffix) of another (``{"r", "u", "f", "b"}``)."""
        body = node.body.body  # type: ignore[attr-defined]
        if len(body) != 1 or not isinstance(body[0], cst.If) or body[0].orelse is not None:
            return False
        branch = body[0]
        last = branch.body.body[-1] if isinstance(branch.body, cst.IndentedBlock) and branch.body.body else None
        if not (isinstance(last, cst.SimpleStatementLine) and any(
            isinstance(small, (cst.Break, cst.Return)) for small in last.body
        )):
            return False
        test = branch.test

        def is_var(expr: cst.BaseExpression) -> bool:
            return isinstance(expr, cst.Name) and expr.value in names

        def free(expr: cst.BaseExpression) -> bool:
            return not any(mentions_of(expr, n) for n in names)

        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(
            test.comparisons[0].operator, cst.Equal
        ):
            left, right = test.left, test.comparisons[0].comparator
            return (is_var(left) and free(right)) or (is_var(right) and free(left))
        if not (isinstance(test, cst.Call) and isinstance(test.func, cst.Attribute)
                and test.func.attr.value in ("startswith", "endswith") and len(test.args) == 1
                and is_var(test.args[0].value) and free(test.func.value)):
            return False
        elements = self._u_literal_set(node.iter)
        if elements is None:
            return False
        if test.func.attr.value == "startswith":
            return not any(a != b and b.startswith(a) for a in elements for b in elements)
        return not any(a != b and b.endswith(a) for a in elements for b in elements)

    def _u_literal_set(self, node: cst.BaseExpression) -> Optional[set[str]]:
        """The strings of a set display, inline or bound once to a name in this module
        (``PREFIX_CHARS = {"r", "u", "f", "b"}``); None when not all literal."""
        if isinstance(node, cst.Name):
            found = []
            for child in descendants(self.module):  # type: ignore[attr-defined]
                if isinstance(child, cst.Assign) and any(
                    isinstance(t.target, cst.Name) and t.target.value == node.value for t in child.targets
                ):
                    found.append(child.value)
                elif isinstance(child, (cst.AugAssign, cst.AnnAssign)) and isinstance(child.target, cst.Name) \
                        and child.target.value == node.value:
                    return None
            if len(found) != 1:
                return None
            node = found[0]
        if not isinstance(node, cst.Set):
            return None
        out = set()
        for element in node.elements:
            if not isinstance(element.value, cst.SimpleString):
                return None
            value = element.value.evaluated_value
            if not isinstance(value, str):
                return None
            out.add(value)
        return out

    def _u_order_free_recursion(self, loop: cst.For, call: cst.Call, names: set[str]) -> bool:
        """``f(..., element)`` where ``f`` is the function the loop is in, and ``f`` only
        reads and rewrites entries of what it is given: each element's subtree is handled
        by its own call, in any order."""
        function = enclosing_function(self.module, loop)  # type: ignore[attr-defined]
        if function is None:
            return False
        func = call.func
        called = func.value if isinstance(func, cst.Name) else (self_attr(func) or "")
        if called != function.name.value or not any(mentions_of(a.value, n) for a in call.args for n in names):
            return False
        return not _builds_in_order(function)


# Calls a test may make that change nothing (a lookup, a text or type test).
_TEST_CALLS = frozenset({"get", "startswith", "endswith", "isinstance", "hasattr", "len", "keys"})


def _only_tests(test: cst.BaseExpression) -> bool:
    """A branch test that changes nothing: comparisons, membership, `and`/`or`/`not` of
    names, attributes, subscripts, literals and the lookups of ``_TEST_CALLS``."""
    for part in descendants(test):
        if isinstance(part, cst.Call):
            func = part.func
            name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
            if name not in _TEST_CALLS:
                return False
        elif isinstance(part, (cst.NamedExpr, cst.Lambda, cst.Await, cst.Yield)):
            return False
    return True


def _one_element(node: cst.BaseExpression) -> bool:
    """A set, list or tuple display of exactly one element, not unpacked (``[" - "]``)."""
    return type(node) in (cst.Set, cst.List, cst.Tuple) and len(node.elements) == 1 \
        and type(node.elements[0]) is cst.Element  # type: ignore[attr-defined]
