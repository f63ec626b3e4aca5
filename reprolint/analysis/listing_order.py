"""Facts of RPL402: directory listings (``os.listdir``, ``glob.glob``, ``Path.iterdir``...)
whose file-system order is used.

:class:`ListingOrderFacts` is the listing half of the order family
(:class:`~reprolint.analysis.order_facts.OrderFacts`): it finds the listing call an
expression takes its order from, follows listings into names, comprehensions and loops,
and judges whether a consumer (a loop's effects, an index, a ``return``) uses their
order. It also holds what the family knows about listing calls (:data:`LISTINGS`) and
about loop bodies whose entries are handled one at a time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

import libcst as cst

from reprolint.analysis.cst_helpers import (
    chain_root, children, descendants, enclosing_function, literal as _literal, mentions_of, self_attr, target_names,
)
from reprolint.analysis.loop_bodies import (
    CONSTANT_NAMES, PURE_BUILTINS, READS, WRITES_TO_PATH, argument_names, condition_queries, module_function, names_read_outside, only_filled,
    carried_names, only_in_messages, stateless_call, touches_only, variables_read, walk_in_order,
)
from reprolint.analysis.usage_events import ListingOrderTaken
from reprolint.analysis.values import UNKNOWN

if TYPE_CHECKING:
    from reprolint.analysis.shown_only import ShownOnly

__all__ = ["DRAW_CALLS", "LISTINGS", "ListingOrderFacts", "keeps_one_name", "mark_use", "sorting_call"]

# Progress bars: iterating one yields what it wraps, in the same order.
PROGRESS_BARS = frozenset({"tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm", "tqdm.std.tqdm", "tqdm"})


def progress_wrapped(node: cst.BaseExpression, qualify: Any) -> cst.BaseExpression:
    """What a progress bar wraps (``tqdm(files, total=n)``: ``files``), else ``node``."""
    if type(node) is cst.Call and node.args and node.args[0].keyword is None and not node.args[0].star \
            and qualify(node.func) in PROGRESS_BARS:
        return node.args[0].value
    return node


# What runs a command line.
_SHELL = ("subprocess.", "os.system", "os.popen")
# Methods that add to the object they are called on, in the order they are called.
_FILLING_METHODS = frozenset({
    "append", "extend", "insert", "add", "update", "appendleft", "extendleft", "write", "writelines", "put",
})

# Listings whose order is the file system's (RPL402).
LISTINGS = {
    "os.listdir": "`os.listdir`", "os.scandir": "`os.scandir`", "os.walk": "`os.walk`",
    "glob.glob": "`glob.glob`", "glob.iglob": "`glob.iglob`",
    "tensorflow.io.gfile.listdir": "`tf.io.gfile.listdir`",
    "tensorflow.io.gfile.glob": "`tf.io.gfile.glob`",
    "tensorflow.io.gfile.walk": "`tf.io.gfile.walk`",
    # TF 1.x spellings (and their tf.compat.v1 twins): the same functions. Their order is
    # the file system's, like os.listdir/glob.glob: GetMatchingPaths (tsl
    # file_system_helper.cc) returns each folder's children in GetChildren (readdir) order,
    # unsorted, and lists several folders of a multi-level pattern in parallel threads
    # (tests/libraries/test_issue26_knowledge_real.py measures the unsorted order).
    "tensorflow.gfile.Glob": "`tf.gfile.Glob`", "tensorflow.compat.v1.gfile.Glob": "`tf.compat.v1.gfile.Glob`",
    "tensorflow.gfile.ListDirectory": "`tf.gfile.ListDirectory`",
    "tensorflow.compat.v1.gfile.ListDirectory": "`tf.compat.v1.gfile.ListDirectory`",
    "tensorflow.gfile.Walk": "`tf.gfile.Walk`", "tensorflow.compat.v1.gfile.Walk": "`tf.compat.v1.gfile.Walk`",
}


# How a use of a listing depends on its order, weakest first (a finding's ``use``):
# ``stored`` is a listing kept in ``self.<attr>`` that its class never reads in an order
# (the rule asks whether code elsewhere reads the attribute); ``loop`` goes through every
# entry in turn; ``passed`` hands the whole listing to a call
# (its argument, or part of a list or concatenation that is: ``print(files)``,
# ``subprocess.run(["cmd"] + files)``), where the callee decides; ``other`` is any use not
# classified (an attribute, an operator, a comprehension's copy read elsewhere);
# ``position`` picks entries by their place (an index, a slice, a split, a random pick, a
# loop that stops early), so the order decides *which* files are used, and ``sample``
# (between them) is a dataset's ``self.files[index]`` in its ``__getitem__``: the order of
# its samples (a shuffle, seeded, permutes it repeatably). A module only evaluation, demo
# or test programs run drops ``loop`` and ``passed`` (see the rule).
_USE_RANKS = {"stored": 0, "loop": 1, "passed": 2, "other": 3, "sample": 4, "position": 5}


def mark_use(entry: list[Any], use: str) -> None:
    """Record ``use`` on a stored listing's entry (``[call, description, use, sorted]``),
    keeping the strongest use seen."""
    if not entry[2] or _USE_RANKS[use] > _USE_RANKS[entry[2]]:
        entry[2] = use


# Calls that pick elements of a sequence by position or at random: with the input in
# file-system order, *which* elements they pick differs between machines.
_POSITION_PICKERS = frozenset({
    "random.shuffle", "random.sample", "random.choice", "random.choices",
    "numpy.random.shuffle", "numpy.random.choice", "numpy.random.permutation",
    "numpy.split", "numpy.array_split", "itertools.islice",
    "sklearn.model_selection.train_test_split", "torch.utils.data.random_split",
})


# Methods of process pools and executors that run a function once, on the arguments given.
_SUBMITS = frozenset({"apply_async", "apply", "submit"})


def _progress_only(callback: cst.BaseExpression) -> bool:
    """``lambda _: bar.update(1)``: a callback that only advances a progress bar."""
    if type(callback) is not cst.Lambda:
        return False
    body = callback.body
    return type(body) is cst.Call and type(body.func) is cst.Attribute and body.func.attr.value == "update" \
        and all(type(a.value) is cst.Integer for a in body.args)


# Methods of process pools and executors that run a function on each entry of a sequence.
_MAPS = frozenset({"map", "imap", "imap_unordered", "starmap", "map_async", "starmap_async"})

# Array constructors that hold a listing's entries in its order (`np.array(glob(p))`).
_ARRAYS = frozenset({"numpy.array", "numpy.asarray"})

_LISTING_METHODS = {"rglob": "`Path.rglob`", "iterdir": "`Path.iterdir`", "glob": "`Path.glob`"}


# Functions whose result does not depend on the order they are called in across a
# loop (``latest = max(latest, int(t))`` keeps the maximum in any order).
_ORDER_FREE_FUNCTIONS = frozenset({
    "print", "len", "str", "int", "float", "bool", "isinstance", "max", "min", "abs", "round",
    "all", "any", "hasattr",  # a test of the entry's own values (`all(k in cfg for k in KEYS)`)
    # pure builtins: where their result goes is judged by what the loop grows
    "zip", "list", "tuple", "set", "dict", "range", "sorted", "reversed", "enumerate",
})


_ORDER_FREE_METHODS = frozenset({
    "isdigit", "isnumeric", "isalpha", "replace", "rsplit", "partition", "rpartition", "keys",
    "match", "fullmatch", "search", "group", "isfile", "is_symlink",
    "add", "endswith", "startswith", "lower", "upper", "strip", "split", "exists", "is_file",
    "is_dir", "unlink", "rename", "remove", "mkdir", "stat", "format", "info", "debug",
    "warning", "join", "with_suffix", "relative_to", "discard", "touch", "rmdir", "joinpath", "with_name",
    "with_stem",
})


def _find_calls(node: cst.CSTNode, *names: str) -> list[cst.Call]:
    wanted = set(names)
    found = []
    for child in descendants(node):
        if type(child) is cst.Call:  # not isinstance: see cst_helpers.CONCRETE
            func = child.func
            name = func.attr.value if isinstance(func, cst.Attribute) else (
                func.value if isinstance(func, cst.Name) else None
            )
            if name in wanted:
                found.append(child)
    return found


def _contains(node: cst.CSTNode, kinds: tuple[type, ...]) -> bool:
    return any(isinstance(child, kinds) for child in descendants(node))


def _stops_early(body: cst.CSTNode, *kinds: type) -> bool:
    """Whether a loop whose body is ``body`` may end before its last entry: a ``return``
    (or another of ``kinds``, such as ``yield``) in it, or a ``break`` of its own, not
    one of a loop nested in it (``for fname in os.listdir(d): ... break``); nor
    anything in a function or lambda it defines."""
    todo: list[tuple[cst.CSTNode, bool]] = [(child, False) for child in children(body)]
    while todo:
        node, nested = todo.pop()
        kind = type(node)
        if kind is cst.Return or kind in kinds or (kind is cst.Break and not nested):
            return True
        if kind in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        loop = kind is cst.For or kind is cst.While
        orelse = getattr(node, "orelse", None) if loop else None
        # (a nested loop's `else` runs once that loop ends: a `break` there is not its own)
        todo.extend((child, nested if child is orelse else nested or loop) for child in children(node))
    return False


def _sorts(body: cst.CSTNode, name: str) -> bool:
    """``name.sort()`` or ``sorted(name)`` somewhere in ``body``."""
    for call in _find_calls(body, "sort", "sorted"):
        func = call.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == name:
            return True
        if isinstance(func, cst.Name) and call.args and isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == name:
            return True
    return False


def _one_match_pattern(call: cst.Call) -> bool:
    """A glob whose pattern names particular files (``root + "/*.txt"``, ``md5 + "_*"``),
    not a whole folder (``"*"``, ``"data/*"``)."""
    if not call.args:
        return False
    pattern = call.args[0].value
    if isinstance(pattern, cst.SimpleString):
        try:
            text = pattern.evaluated_value
        except Exception:  # noqa: BLE001 - odd prefixes
            return False
        return isinstance(text, str) and text.rsplit("/", 1)[-1] not in ("*", "**")
    return True


def keeps_one_name(comp: Any) -> bool:
    """A comprehension that keeps only entries equal to one value (``if f == NAME``):
    every element it yields is the same, so the listing's order cannot show."""
    target = comp.for_in.target
    if not isinstance(target, cst.Name) or comp.for_in.inner_for_in is not None:
        return False
    for cond in comp.for_in.ifs:
        test = cond.test
        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(
            test.comparisons[0].operator, cst.Equal
        ):
            sides = (test.left, test.comparisons[0].comparator)
            if any(isinstance(side, cst.Name) and side.value == target.value for side in sides) and (
                isinstance(comp.elt, cst.Name) and comp.elt.value == target.value
            ):
                return True
    return False


def sorting_call(node: cst.BaseExpression) -> bool:
    """``sorted(...)``, or a helper named like a sort (``natural_sort(...)``)."""
    if not isinstance(node, cst.Call):
        return False
    func = node.func
    name = func.value if isinstance(func, cst.Name) else (func.attr.value if isinstance(func, cst.Attribute) else "")
    return name == "sorted" or "sort" in name.lower()


# Calls that take a path's folder (or split it off): what entries of one folder share.
_FOLDER_OF = frozenset({"os.path.dirname", "os.path.split", "posixpath.dirname", "ntpath.dirname"})


# Calls that each perform one operation on one file (the order of operations on
# distinct files does not change the result).
_PER_FILE_OPERATIONS = frozenset({
    "huggingface_hub.CommitOperationAdd", "huggingface_hub.CommitOperationDelete",
    "huggingface_hub.CommitOperationCopy", "shutil.copy", "shutil.copy2", "shutil.copyfile",
    "shutil.move", "shutil.rmtree", "os.remove", "os.unlink", "os.rename",
})




# Calls that draw from a generator: in a loop over a listing, each entry gets the draw
# its place in the order gives it (a random train/validation pick per file).
DRAW_CALLS = ("random.", "numpy.random.", "torch.rand", "torch.bernoulli", "torch.multinomial", "torch.normal",
          "tensorflow.random.", "jax.random.")  # ("torch.rand": also randn, randint, randperm)


class ListingOrderFacts:
    """Directory listings and whether their order is used (mixed into
    :class:`~reprolint.analysis.order_facts.OrderFacts`).

    Uses the collector's state helpers (``_u_state``, ``_u_states``, ``_u_finding``,
    ``_u_is_module``), its per-module sets (``_u_unordered``, ``_u_claimed``,
    ``_u_store``) and the family's ``_u_kind`` (set_order) and ``_u_all_unordered``
    (order_facts).
    """

    _u_unordered: set[int]
    _u_positioned: set[int]
    _u_sampled: set[int]
    _u_handed_on: set[int]
    _u_claimed: set[int]
    _u_store: set[int]
    _u_walk_parts: dict[int, cst.Subscript]  # walk call -> `next(os.walk(d))[i]` around it

    def _u_listing_root(self, node: cst.BaseExpression, depth: int = 0) -> Optional[tuple[cst.Call, str]]:
        """The listing call an expression takes its order from: the call itself,
        ``list(...)``, ``np.array(...)``, a comprehension, ``filter``/``map`` over it."""
        if depth > 4:
            return None
        kind = type(node)  # type tests, not isinstance: see cst_helpers.CONCRETE
        if kind is cst.Call:
            qn = self.qualify(node.func)  # type: ignore[attr-defined]
            if qn in LISTINGS:
                return node, LISTINGS[qn]
            func = node.func
            if isinstance(func, cst.Attribute) and qn is None and func.attr.value in _LISTING_METHODS:
                if func.attr.value != "glob" or not self._u_is_module(func.value):
                    if func.attr.value == "iterdir" or node.args:
                        return node, _LISTING_METHODS[func.attr.value]
            bare = func.value if isinstance(func, cst.Name) else None
            if (bare in ("list", "tuple", "iter") or qn in PROGRESS_BARS or qn in _ARRAYS) and node.args:
                return self._u_listing_root(node.args[0].value, depth + 1)
            if bare in ("filter", "map") and len(node.args) >= 2:
                return self._u_listing_root(node.args[1].value, depth + 1)
            return None
        if kind is cst.Subscript:
            walk = self._u_walk_part(node)  # type: ignore[arg-type]
            return (walk, LISTINGS["os.walk"]) if walk is not None else None
        if kind is cst.IfExp:
            # `glob(p) if args.output_dir else []`: the listing, or nothing to order
            for branch, other in ((node.body, node.orelse), (node.orelse, node.body)):  # type: ignore[attr-defined]
                if _nothing(other):
                    return self._u_listing_root(branch, depth + 1)
            return None
        if kind is cst.ListComp or kind is cst.GeneratorExp:
            if keeps_one_name(node):
                return None  # `[f for f in os.listdir(d) if f == NAME]`: equal elements, no order
            if self._u_per_file_operations(node):
                return None  # one file operation per entry: no order
            root = self._u_listing_root(node.for_in.iter, depth + 1)
            inner = node.for_in.inner_for_in
            if root is None and inner is not None and inner.inner_for_in is None:
                # `[p for ext in EXTS for p in Path(d).glob(f"*.{ext}")]`: the listings of
                # each pattern one after the other, each in its file-system order
                root = self._u_listing_root(inner.iter, depth + 1)
            return root
        return None

    def u_concatenated_listing(self, value: cst.BaseExpression) -> Optional[tuple[cst.Call, str]]:
        """``list(a.glob("*.bin")) + list(a.glob("*.pth"))``: a concatenation of listings
        (and other lists) holds the first listing's entries, then the others', each in its
        own file-system order. The name bound to it holds one listing, as ``files +=
        glob(p2)`` does: the first listing stands for all of them, the others are
        claimed (concatenating is no use of the order; a later ``sorted()`` orders all of
        it)."""
        parts: list[cst.BaseExpression] = []
        stack = [value]
        while stack:
            node = stack.pop()
            if type(node) is cst.BinaryOperation and type(node.operator) is cst.Add:  # type: ignore[attr-defined]
                stack.extend((node.right, node.left))  # type: ignore[attr-defined]
            else:
                parts.append(node)
        if len(parts) < 2:
            return None
        roots = [root for root in map(self._u_listing_root, parts) if root is not None]
        roots = [root for root in roots if id(root[0]) not in self._u_unordered]
        if not roots:
            return None
        for other in roots[1:]:
            self._u_claimed.add(id(other[0]))
        return roots[0]

    def _u_flattened_unordered(self, node: cst.Call, qn: Optional[str]) -> None:
        """``sorted(sum([glob(p) for p in patterns], []))``,
        ``sorted(itertools.chain.from_iterable(glob(p) for p in patterns))``: a flattening
        whose result is used in no order puts each listing's entries in that result, so
        each listing's own order is not used either. (``sorted([glob(p) for p in ps])``
        is no flattening: it orders whole lists, each keeping its entries' order.)"""
        func = node.func
        summed = type(func) is cst.Name and func.value == "sum" and not self.is_local("sum") \
            and len(node.args) == 2 and type(node.args[1].value) is cst.List  # type: ignore[attr-defined]
        if not (summed or qn == "itertools.chain.from_iterable") or not node.args:
            return
        parts = node.args[0].value
        if type(parts) in (cst.ListComp, cst.GeneratorExp):
            self._u_unordered.add(id(parts.elt))  # type: ignore[attr-defined]
        elif type(parts) in (cst.List, cst.Tuple):
            for element in parts.elements:  # type: ignore[attr-defined]
                self._u_unordered.add(id(element.value))

    def _u_listing_call(self, node: cst.Call, qn: Optional[str], method: Optional[str]) -> None:
        target = self.call_target(node.func)  # type: ignore[attr-defined]  # resolved against the project later
        for position, arg in enumerate(node.args):
            if arg.keyword is not None:  # `f(files=...)` names a parameter, not the variable
                self._u_store.add(id(arg.keyword))
            self._u_mark_handed_on(arg.value)
            if target is not None and not arg.star:
                # `utils.create_exp_dir(path, scripts_to_save=glob.glob("*.py"))`: whether
                # the order matters is what the project function does with that parameter
                self._u_handed_to[id(arg.value)] = (target, arg.keyword.value if arg.keyword is not None else position)
        func = node.func
        if type(func) is cst.Attribute and func.attr.value == "extend" and type(func.value) is cst.Name \
                and len(node.args) == 1 and node.args[0].keyword is None and node.args[0].star == "":
            # `files.extend(glob(p))` is `files += glob(p)`: the name holds the listing
            self._u_extend_listing(func.value, node.args[0].value)  # type: ignore[attr-defined]
        walk = self._u_walk_top(node)
        if walk is not None and id(walk) not in self._u_walk_parts:
            self._u_claimed.add(id(walk))  # the top folder's triple, not a part of it
        elif type(func) is cst.Name and func.value == "next" and node.args and not self.is_local("next"):  # type: ignore[attr-defined]
            self._u_first_match(node.args[0].value)  # `next(Path(d).glob("*.xml"))`, as `glob(...)[0]`
        if isinstance(func, cst.Name) and func.value == "bool" and len(node.args) == 1 \
                and not self.is_local("bool"):  # type: ignore[attr-defined]
            self.u_truth_test(node.args[0].value)  # type: ignore[attr-defined]  # empty or not: no order
        zipped = isinstance(func, cst.Name) and func.value == "zip" and not self.is_local("zip")  # type: ignore[attr-defined]
        if qn in _POSITION_PICKERS or zipped:
            # `random.sample(files, k)`, `train_test_split(files)`, `zip(images, masks)`:
            # which entries are picked (or paired) follows their places
            for arg in node.args:
                if arg.keyword is None:
                    self._u_mark_positioned(arg.value)
        if node.args and sorting_call(node):
            # `natural_sort(tf.io.gfile.glob(p))`, `utils.sort_files(os.listdir(d))`: a
            # helper named like a sort puts the listing in its own order
            self._u_unordered.add(id(node.args[0].value))
            first = node.args[0].value
            if isinstance(first, cst.Name):
                for state in self._u_states():
                    if first.value in state.appended:  # `sorted(paths)` of a list a loop filled
                        state.appended[first.value][3] = True
        if id(node) in self._u_unordered:
            for arg in node.args:
                self._u_unordered.add(id(arg.value))
            self._u_flattened_unordered(node, qn)
        if id(node) in self._u_claimed and node.args:
            bare = node.func.value if isinstance(node.func, cst.Name) else None
            if bare in ("list", "tuple", "iter"):
                self._u_claimed.add(id(node.args[0].value))
            elif bare in ("filter", "map") and len(node.args) >= 2:
                self._u_claimed.add(id(node.args[1].value))
        root = self._u_listing_root(node)
        if root is None or root[0] is not node:
            return
        # where the order is taken, with the branch conditions there: RPL402 reports the
        # listings a program runs; a listing bound to a name takes its order where a use
        # does (`u_order_used`), which a default run may skip (`else: chosen = files`)
        if not self._u_stored(node):
            self._u_emit(ListingOrderTaken, "", node)
        part = self._u_walk_parts.get(id(node), node)  # `next(os.walk(d))[2]`: what uses it
        if any(id(n) in self._u_unordered or id(n) in self._u_claimed for n in (node, part)):
            return
        use = "position" if id(node) in self._u_positioned else self.u_passed_use(node, part)
        self._u_report_listing(node, root[1], use=use)

    def _u_stored(self, node: cst.Call) -> bool:
        """The listing call is the value a name is bound to (the assignment hook ran
        before its value was walked, and noted where: ``entry[4]``)."""
        return any(entry[0] is node and len(entry) > 4 for entry in self._u_state().listings.values())  # type: ignore[attr-defined]

    def u_order_used(self, entry: list[Any], use: str) -> None:
        """A use of a stored listing that takes its order: recorded on its entry, and, for
        a listing bound to a name, an event where the use runs at the listing's place,
        under the conditions of the binding and, in the binding's own scope, of the use
        (``else: chosen = files`` then a loop over ``chosen``: only where the `else` runs)."""
        mark_use(entry, use)
        if len(entry) > 4 and isinstance(entry[0], cst.Call):
            scope, conds = entry[4]
            here = self.current_conds() if scope == id(self.scope) else ()  # type: ignore[attr-defined]
            self.emit(ListingOrderTaken(  # type: ignore[attr-defined]
                "", self.span(entry[0]), self._u_text(entry[0]), conds + tuple(c for c in here if c not in conds),  # type: ignore[attr-defined]
            ))

    def _u_walk_top(self, node: cst.BaseExpression) -> Optional[cst.Call]:
        """The ``os.walk`` call of ``next(os.walk(d))``, ``next(iter(os.walk(d)))`` or
        ``os.walk(d).__next__()`` (Python 2's ``.next()``), or of a name holding the walk.
        The first triple a walk yields is the top folder's own ``(root, dirs, files)`` in
        any order; only the two lists in it come in the file system's order."""
        if type(node) is not cst.Call:
            return None
        func = node.func
        if type(func) is cst.Name and func.value == "next" and len(node.args) == 1 \
                and not self.is_local("next"):  # type: ignore[attr-defined]
            inner = node.args[0].value
            if type(inner) is cst.Call and type(inner.func) is cst.Name and inner.func.value == "iter" and inner.args:
                inner = inner.args[0].value
        elif type(func) is cst.Attribute and func.attr.value in ("__next__", "next") and not node.args:
            inner = func.value
        else:
            return None
        if type(inner) is cst.Call and self.qualify(inner.func) == "os.walk":  # type: ignore[attr-defined]
            return inner
        if type(inner) is cst.Name:  # `walk = os.walk(d)`, then `next(walk)`
            for state in self._u_states():
                entry = state.listings.get(inner.value)
                if entry is not None:
                    if entry[1] != LISTINGS["os.walk"]:
                        return None
                    self._u_claimed.add(id(inner))  # taking the top triple uses no order
                    return entry[0]  # type: ignore[no-any-return]
        return None

    def _u_walk_part(self, node: cst.Subscript) -> Optional[cst.Call]:
        """The ``os.walk`` call of ``next(os.walk(d))[1]`` (the top folder's subfolders)
        or ``[2]`` (its files)."""
        if len(node.slice) != 1 or type(node.slice[0].slice) is not cst.Index:
            return None
        index = node.slice[0].slice.value  # type: ignore[attr-defined]
        if type(index) is not cst.Integer or index.value not in ("1", "2"):
            return None
        return self._u_walk_top(node.value)

    def u_walk_unpack(self, targets: list[cst.BaseExpression], value: cst.BaseExpression, state: Any) -> None:
        """``root, dirs, files = next(os.walk(d))``: ``dirs`` and ``files`` hold listings
        (the top folder's, in the file system's order), ``root`` does not."""
        walk = self._u_walk_top(value)
        if walk is None:
            return
        self._u_claimed.add(id(walk))
        for target in targets:
            if type(target) is cst.Tuple and len(target.elements) == 3:  # type: ignore[attr-defined]
                for element in target.elements[1:]:  # type: ignore[attr-defined]
                    if type(element.value) is cst.Name:
                        self._u_store.add(id(element.value))
                        state.listings[element.value.value] = [walk, LISTINGS["os.walk"], False, False]

    def u_passed_use(self, call: Any, node: cst.CSTNode) -> str:
        """:meth:`u_listing_use` of ``node`` (the listing ``call`` or a name holding it),
        noting where a "passed" use hands the listing: to a project function's parameter
        (its call target and the parameter's position or name), or elsewhere (None)."""
        use = self.u_listing_use(node)
        if use == "passed":
            self._u_passes.setdefault(id(call), []).append(self._u_handed_to.get(id(node)))
        return use

    def u_order_free_params(self) -> frozenset[str]:
        """``<function>.<parameter>`` of each parameter of this module's functions that
        the function loops over, handling each entry on its own (a copy, a delete, a file
        of its own), and otherwise only tests (``if scripts is not None:``,
        ``len(files)``): a listing handed to it whole reaches nothing through its order.
        Only parameters a loop of the function iterates over are candidates (noted by
        ``usage_for`` during the walk)."""
        found: set[str] = set()
        for qualname, (body, params) in self._u_loop_params.items():  # type: ignore[attr-defined]
            parents: dict[int, cst.CSTNode] = {}
            mentions: dict[str, list[cst.Name]] = {name: [] for name in params}
            stack: list[cst.CSTNode] = [body]
            while stack:
                node = stack.pop()
                for child in children(node):
                    parents[id(child)] = node
                    if type(child) is cst.Name and child.value in mentions:  # type: ignore[attr-defined]
                        mentions[child.value].append(child)  # type: ignore[attr-defined]
                    stack.append(child)
            for name, nodes in mentions.items():
                if nodes and all(self._u_order_free_mention(n, parents) for n in nodes):
                    found.add(f"{qualname}.{name}")
        return frozenset(found)

    def _u_order_free_mention(self, name: cst.Name, parents: dict[int, cst.CSTNode]) -> bool:
        """``name`` is the iterable of a loop that handles each entry on its own, or is
        only tested (``if name:``, ``not name``, ``name is None``, ``len(name)``)."""
        parent = parents.get(id(name))
        kind = type(parent)
        if kind is cst.For:
            return parent.iter is name and self._u_entries_on_their_own(parent)  # type: ignore[union-attr,arg-type]
        if kind is cst.If or kind is cst.While:
            return parent.test is name  # type: ignore[union-attr]
        if kind is cst.UnaryOperation:
            return type(parent.operator) is cst.Not  # type: ignore[union-attr]
        if kind is cst.Comparison:
            return parent.left is name and all(  # type: ignore[union-attr]
                type(c.operator) in (cst.Is, cst.IsNot) and type(c.comparator) is cst.Name
                and c.comparator.value == "None" for c in parent.comparisons)  # type: ignore[union-attr]
        if kind is cst.Arg:
            call = parents.get(id(parent))
            return type(call) is cst.Call and type(call.func) is cst.Name and call.func.value == "len" \
                and len(call.args) == 1  # type: ignore[union-attr]
        return False

    def _u_entries_on_their_own(self, node: cst.For) -> bool:
        """A loop whose body handles each entry on its own (see :meth:`_u_loop_effects`)
        and cannot stop early (``break``, ``return``)."""
        return not any(self._u_loop_effects(node)) and not _stops_early(node.body)

    def _u_loop_effects(self, node: cst.For) -> tuple[bool, list[cst.Call], list[cst.Call], list[cst.Name]]:
        """What a loop's body carries from one entry to the next: whether it yields, the
        calls that fill a list by name (``append``/``extend``/``insert``), the calls whose
        effect may depend on the order, and the names it grows in entry order
        (:meth:`_u_accumulated`). None of them: each entry is handled on its own."""
        body = node.body
        queries = condition_queries(body)
        local = self._u_loop_locals(node)
        # a worker submitted for this entry (`pool.apply_async(work, args=(f,), callback=lambda
        # _: bar.update(1))`) carries nothing to the next, nor does its progress callback
        submitted = [
            c for c in descendants(body)
            if type(c) is cst.Call and type(c.func) is cst.Attribute and c.func.attr.value in _SUBMITS
            and self._u_submitted_on_its_own(c, local)
        ]
        queries |= {id(c) for c in submitted} | {
            id(inner) for c in submitted
            for a in c.args if a.keyword is not None and a.keyword.value in ("callback", "error_callback")
            for inner in descendants(a.value) if type(inner) is cst.Call
        }
        # calls on an object of this iteration only (`lines.insert(0, h)` of a file's own
        # lines, `f.writelines(...)` of its own file) carry nothing to the next entry
        entries = frozenset(n.value for n in target_names(node.target))
        calls = [c for c in descendants(body) if isinstance(c, cst.Call) and id(c) not in queries
                 and not self._u_per_entry_call(c, local, entries)]
        appended = [
            c for c in calls
            if isinstance(c.func, cst.Attribute) and c.func.attr.value in ("append", "extend", "insert")
            and isinstance(c.func.value, cst.Name)
        ]
        others = [c for c in calls if c not in appended and not self._u_order_free(c)]
        grown = self._u_accumulated(body, local)
        if not appended and not grown:
            # the exception a `raise` builds ends the program whichever entry comes first
            # (`raise DataLoaderError(f"{name} is there twice")` while a table is filled by
            # name); a loop that also fills a list in entry order keeps it as an effect:
            # the list its callers get is judged here (a returned list is not followed)
            raised = {id(c) for r in descendants(body) if type(r) is cst.Raise for c in descendants(r) if type(c) is cst.Call}
            others = [c for c in others if id(c) not in raised]
        return _contains(body, (cst.Yield,)), appended, others, grown

    def u_listing_use(self, node: cst.CSTNode) -> str:
        """What a listing's (or the name holding it) node does with the order here."""
        if id(node) in self._u_sampled:
            return "sample"
        if id(node) in self._u_positioned:
            return "position"
        return "passed" if id(node) in self._u_handed_on else "other"

    def _u_mark_handed_on(self, value: cst.BaseExpression) -> None:
        """A call's argument, and the parts of a list, tuple or ``+`` it is made of, are
        handed to the callee whole."""
        self._u_handed_on.add(id(value))
        kind = type(value)  # type tests, not isinstance: see cst_helpers.CONCRETE
        if kind is cst.BinaryOperation and type(value.operator) is cst.Add:  # type: ignore[attr-defined]
            self._u_mark_handed_on(value.left)  # type: ignore[attr-defined]
            self._u_mark_handed_on(value.right)  # type: ignore[attr-defined]
        elif kind is cst.List or kind is cst.Tuple:
            for element in value.elements:  # type: ignore[attr-defined]
                self._u_mark_handed_on(element.value)

    def _u_mark_positioned(self, node: cst.BaseExpression) -> None:
        """``node``'s elements are picked by position: the node itself (a name holding a
        listing, ``self.files``) and the listing call an inline expression takes its order
        from (``os.listdir(d)[3]``, ``[f for f in glob(p)][:5]``)."""
        self._u_positioned.add(id(node))
        kind = type(node)  # type tests, not isinstance: see cst_helpers.CONCRETE
        if kind is cst.Call or kind is cst.ListComp or kind is cst.GeneratorExp:
            root = self._u_listing_root(node)
            if root is not None:
                self._u_positioned.add(id(root[0]))

    def _u_report_listing(self, node: Optional[cst.CSTNode], description: Optional[str], **extra: Any) -> None:
        if node is None or description is None:
            return
        if isinstance(node, cst.BaseExpression) and self._u_shown(node):
            return  # which files a figure shows: no result takes the order
        if extra.get("use") == "passed" and id(node) in self._u_passes:
            extra["passed_to"] = self._u_passes[id(node)]  # the rule resolves the project functions
        self._u_finding("RPL402", node, function=description.strip("`"), **extra)

    def _u_shown(self, node: cst.BaseExpression) -> bool:
        """Whether the value of ``node`` (a listing, an op's result) only reaches a
        figure (see ``shown_only``); never in a module that imports no plotting library."""
        shown = self._u_shown_only()
        return shown is not None and shown.of(node)

    def _u_shown_only(self) -> Optional["ShownOnly"]:
        """This module's :class:`ShownOnly`, made on first use; None in a module that
        imports no plotting library (nothing there can draw)."""
        if not ({"matplotlib", "seaborn"} & self.uses):  # type: ignore[attr-defined]
            return None
        shown = getattr(self, "_u_shown_only_of", None)
        if shown is None or shown.module is not self.module:  # type: ignore[attr-defined]
            from reprolint.analysis.shown_only import ShownOnly

            shown = self._u_shown_only_of = ShownOnly(self.module, self.qualify)  # type: ignore[attr-defined]
        return shown

    def visit_SimpleStatementLine(self, node: Union[cst.SimpleStatementLine, cst.SimpleStatementSuite]) -> None:
        """A listing (or the name holding one) as a statement of its own: a notebook
        displays it (``os.listdir(ckpt_dir)`` at the end of a cell), a script discards
        it; either way its order reaches no result."""
        for small in node.body:
            if not isinstance(small, cst.Expr):
                continue
            value = small.value
            if isinstance(value, cst.Name):
                self._u_claimed.add(id(value))
                continue
            if type(value) in (cst.ListComp, cst.GeneratorExp, cst.SetComp) and type(value.elt) is cst.Call \
                    and value.for_in.inner_for_in is None and type(value.for_in.iter) is cst.Name \
                    and self._u_order_free(value.elt) and not value.for_in.ifs:
                # `[print(c) for c in files]` as a statement: a loop that only shows each entry
                self._u_claimed.add(id(value.for_in.iter))
                continue
            if type(value) is cst.Call and self._u_mapped_on_their_own(value):
                # `pool.map(resize, images)` as a statement: each entry handled on its own
                # by a worker, the results discarded
                self._u_map_discarded(value)
                continue
            root = self._u_listing_root(value)
            if root is not None:
                self._u_all_unordered(value)

    # `with Pool() as pool: pool.map(resize, files)` on one line: the same statements
    visit_SimpleStatementSuite = visit_SimpleStatementLine

    def u_discarded_map_loop(self, node: cst.For) -> None:
        """``for _ in pool.imap(convert, files): pass`` (also in a progress bar, whose
        body may update it): a loop that only waits for the workers, reading none of their
        results, is the statement ``pool.map(convert, files)``."""
        call = progress_wrapped(node.iter, self.qualify)  # type: ignore[attr-defined]
        if type(call) is not cst.Call or _contains(node.body, (cst.Break, cst.Return, cst.Yield)):
            return
        if any(mentions_of(node.body, name.value) for name in target_names(node.target)):
            return
        if self._u_mapped_on_their_own(call):
            self._u_map_discarded(call)

    def _u_map_discarded(self, call: cst.Call) -> None:
        """The entries ``call`` (a pool's map) hands its workers take no order."""
        mapped = call.args[1].value
        self._u_claimed.add(id(mapped))
        root = self._u_listing_root(mapped)
        if root is not None:
            self._u_unordered.add(id(root[0]))

    def _u_mapped_on_their_own(self, call: cst.Call) -> bool:
        """``pool.map(f, items)`` (also ``imap``, ``imap_unordered``, ``starmap`` and their
        ``_async`` forms, an executor's ``map``) where ``f`` is a function of this module
        that changes nothing but the entry it is given (see ``touches_only``)."""
        func = call.func
        if type(func) is not cst.Attribute or func.attr.value not in _MAPS or len(call.args) < 2 \
                or any(a.keyword is not None or a.star for a in call.args[:2]):
            return False
        return self._u_worker_on_its_own(call.args[0].value, [cst.Name("entry")], {"entry"}, params=1)

    def _u_worker_on_its_own(
        self, worker: cst.BaseExpression, given: list[cst.BaseExpression], local: set[str], params: int = 0,
    ) -> bool:
        """``worker`` names a function of this module (with at least ``params`` positional
        parameters) that, called with ``given`` (the values a pool or executor passes it),
        changes nothing but what ``local`` names (``touches_only``)."""
        if type(worker) is cst.Call and self.qualify(worker.func) == "functools.partial" and worker.args \
                and not any(a.star or a.keyword is not None for a in worker.args):  # type: ignore[attr-defined]
            # `partial(resize, root)`: the worker is given those first, then the pool's values
            given = [a.value for a in worker.args[1:]] + given
            params += len(worker.args) - 1
            worker = worker.args[0].value
        callee = module_function(self.module, worker.value) if type(worker) is cst.Name else None  # type: ignore[attr-defined,union-attr]
        return callee is not None and len(callee.params.params) >= params and touches_only(
            callee, cst.Call(worker, [cst.Arg(v) for v in given]), local, self.qualify, self.module, shows=True,  # type: ignore[attr-defined]
            fixed=self._u_fixed)

    def visit_Return(self, node: cst.Return) -> None:
        """``return os.listdir(path)`` (or a comprehension over it, a name holding it, or a
        list a loop over it filled): a helper hands the listing to its callers as is. Whether its order matters is decided
        where it is used; in practice callers sort or search it (flax's ``io.listdir``/
        ``io.glob`` wrappers, Stable-Baselines3's ``get_monitor_files``), so the helper
        itself is not reported."""
        if node.value is None or self.scope is self.scopes[0]:  # type: ignore[attr-defined]
            return
        root = self._u_listing_root(node.value)
        if root is not None:
            self._u_unordered.add(id(root[0]))
        elif isinstance(node.value, cst.Name):
            for state in self._u_states():
                if node.value.value in state.listings:
                    self._u_claimed.add(id(node.value))
                appended = state.appended.get(node.value.value)
                if appended is not None and only_filled(self.module, node, node.value.value):  # type: ignore[attr-defined]
                    # a list a loop filled with the entries (`paths.append(os.path.join(root,
                    # f))` under `os.walk`), returned as is: the loop form of a returned
                    # comprehension; callers decide
                    appended[3] = True

    def visit_Subscript(self, node: cst.Subscript) -> None:
        """``glob.glob(pattern)[0]`` (or ``files[0]`` of a stored glob): the one match the
        pattern is expected to have is taken; with one match the order does not matter
        (several matches are a bug of their own). Element 0 of a whole folder
        (``os.listdir(d)[0]``), other indices and slices use the order: they pick
        entries by position."""
        walk = self._u_walk_part(node)
        if walk is not None:
            self._u_walk_parts[id(walk)] = node
            return
        if self._u_sample_index(node):
            # `self.files[index]` in a dataset's `__getitem__`: the listing's order is the
            # order of the samples
            self._u_sampled.add(id(node.value))
            return
        self._u_mark_positioned(node.value)
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return
        index = node.slice[0].slice.value
        if not (isinstance(index, cst.Integer) and index.value == "0"):
            return
        if isinstance(node.value, cst.Name):
            if self._u_single_element(node.value.value):
                self._u_claimed.add(id(node.value))
                return
            for state in self._u_states():
                entry = state.listings.get(node.value.value)
                if entry is not None and "glob" in str(entry[1]) and _one_match_pattern(entry[0]):
                    self._u_claimed.add(id(node.value))
                    return
        elif isinstance(node.value, cst.Call):
            self._u_first_match(node.value)

    def _u_sample_index(self, node: cst.Subscript) -> bool:
        """``self.<attr>[i]`` in a ``__getitem__`` whose parameter ``i`` is the index."""
        scope = self.scope  # type: ignore[attr-defined]
        if scope.kind != "function" or not scope.name.endswith(".__getitem__.") or len(node.slice) != 1:
            return False
        index = node.slice[0].slice
        return isinstance(index, cst.Index) and type(index.value) is cst.Name \
            and index.value.value in scope.params and self_attr(node.value) is not None

    def _u_first_match(self, value: cst.BaseExpression) -> None:
        """The first entry of a glob whose pattern names particular files (``glob(p)[0]``,
        ``next(Path(d).glob("*.xml"))``): the one match it is expected to have, whatever
        the order."""
        root = self._u_listing_root(value)
        if root is not None and root[0] is value and "glob" in root[1] and _one_match_pattern(value):  # type: ignore[arg-type]
            self._u_unordered.add(id(value))

    def _u_single_element(self, name: str) -> bool:
        """Inside ``if len(<name>) == 1:`` (its body, not its ``else``): the list has one
        element, so element 0 is the same in any order (``potential_index[0]`` of the
        files matching a suffix, after ``elif len(potential_index) == 1:``)."""
        for _tree, polarity, test in getattr(self, "conds", ()):
            if polarity and isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
                comp = test.comparisons[0]
                left = test.left
                if isinstance(comp.operator, cst.Equal) and isinstance(comp.comparator, cst.Integer) \
                        and comp.comparator.value == "1" and isinstance(left, cst.Call) \
                        and isinstance(left.func, cst.Name) and left.func.value == "len" and len(left.args) == 1 \
                        and isinstance(left.args[0].value, cst.Name) and left.args[0].value.value == name:
                    return True
        return False

    def _u_derived_listing(self, value: cst.BaseExpression) -> Optional[tuple[str, Any]]:
        """The listing held in a name that ``value`` copies in the same order (or sorts):
        ``[f for f in files if ...]``, ``list(files)``, ``filter(p, files)``, ``files``,
        ``sorted(files)``; with the :class:`~reprolint.analysis.order_facts.UsageScope`
        that holds it (typed ``Any``: order_facts imports this module). The name's node is
        claimed: deriving is not using the order."""
        node = value
        if sorting_call(node) and node.args:  # type: ignore[union-attr]
            node = node.args[0].value  # type: ignore[union-attr]
        if isinstance(node, cst.Call) and node.args and self.qualify(node.func) in _ARRAYS:  # type: ignore[attr-defined]
            node = node.args[0].value  # `np.array([int(f[:-4]) for f in files])`
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.args:
            if node.func.value in ("list", "tuple"):
                node = node.args[0].value
            elif node.func.value in ("filter", "map") and len(node.args) >= 2:
                node = node.args[1].value
        if isinstance(node, (cst.ListComp, cst.GeneratorExp)):
            node = node.for_in.iter
        if not isinstance(node, cst.Name):
            return None
        for state in self._u_states():
            if node.value in state.listings:
                self._u_claimed.add(id(node))
                return node.value, state
        return None

    def _u_sorted_in_place(self, name: str) -> None:
        for state in self._u_states():
            if name in state.listings:
                state.listings[name][3] = True
            if name in state.appended:
                state.appended[name][3] = True

    def _u_per_file_operations(self, node: Any) -> bool:
        """``[CommitOperationAdd(path_or_fileobj=str(f), path_in_repo=...) for f in
        files]``: one file operation per entry (a Hub commit's additions or deletions,
        ``shutil.copy``, ``os.remove``); operations on distinct files give the same
        result in any order."""
        elt = getattr(node, "elt", None)
        if not isinstance(elt, cst.Call) or node.for_in.inner_for_in is not None:
            return False
        qn = self.qualify(elt.func) or ""  # type: ignore[attr-defined]
        return qn in _PER_FILE_OPERATIONS and any(
            mentions_of(a.value, n.value) for a in elt.args for n in target_names(node.for_in.target)
        )

    def _u_listing_loop(self, node: cst.For, root: tuple[Any, Any], pending: Optional[str] = None) -> None:
        call, description = root
        body = node.body
        is_walk = description == LISTINGS["os.walk"]
        if is_walk and isinstance(node.target, cst.Tuple) and len(node.target.elements) == 3:
            dirs = node.target.elements[1].value
            files = node.target.elements[2].value
            dirs_sorted = isinstance(dirs, cst.Name) and _sorts(body, dirs.value)
            files_sorted = isinstance(files, cst.Name) and _sorts(body, files.value)
            if dirs_sorted and files_sorted:
                return
        yields, appended, others, grown = self._u_loop_effects(node)
        # a counter the body steps and reads (`f"shard_{index:04d}.tar"` ... `index += 1`)
        # pairs each entry with its place, like `enumerate`
        counted = _position_counter(body, self._u_loop_locals(node))
        if not yields and not others and not appended and not grown and not counted:
            return  # each entry is handled on its own (copy, delete, count)
        state = self._u_state()
        # the loop itself takes every entry in turn: what differs with the order is the
        # order of its effects (the rule decides where that matters); one that can stop
        # early (`break`, `return`) takes the entries that come first
        stops = _stops_early(body)
        # a draw in the loop pairs each entry with the number its place gives it
        draws = any(isinstance(c, cst.Call) and (self.qualify(c.func) or "").startswith(DRAW_CALLS)  # type: ignore[attr-defined]
                    for c in descendants(body))
        use = "position" if stops or draws or counted else "loop"
        if not yields and not others and not counted:
            # the lists it fills hold the entries in the listing's order (also one held in
            # a name): judged by what is done with them later, like a stored listing
            # (filling them is no use); a loop that stops early or draws has already
            # picked entries by position
            filling = [c.func.value for c in appended] + grown  # type: ignore[union-attr]
            # a listing held in a name (its entry: the call, and where it was bound) takes
            # its order where the filled lists are used
            source = self._u_held(state, pending) if pending is not None else [call, description]
            # (a listing the name holds already sorted, `files.sort()` before the loop,
            # fills them in sorted order)
            sorted_ = len(source) > 3 and bool(source[3])
            for name in filling:
                state.appended[name.value] = [*source[:2], use if use == "position" else False, sorted_, *source[4:]]  # type: ignore[attr-defined]
            self._u_claimed.update(id(n) for n in filling)
            return
        if pending is not None:
            self.u_order_used(self._u_held(state, pending), use)
            return
        self._u_report_listing(call, description, use=use)

    @staticmethod
    def _u_held(state: Any, name: str) -> list[Any]:
        """The entry of the listing ``name`` holds: the listing itself, or a list a loop
        over one filled in its order."""
        return state.listings.get(name) or state.appended[name]  # type: ignore[no-any-return]

    def _u_accumulated(self, body: cst.CSTNode, local: set[str]) -> list[cst.Name]:
        """The mentions of names outside the loop that grow them in entry order:
        ``result += zip(a, b)``, ``names += [f]``, ``text += f.read()``, both sides of ``x =
        x + [...]`` (a sequence or text, not a number: ``total += size`` is a sum)."""
        grown: list[cst.Name] = []
        for child in descendants(body):
            target: Optional[cst.BaseExpression] = None
            value: Optional[cst.BaseExpression] = None
            if isinstance(child, cst.AugAssign) and isinstance(child.operator, cst.AddAssign):
                target, value = child.target, child.value
            elif isinstance(child, cst.Assign) and len(child.targets) == 1 \
                    and isinstance(child.value, cst.BinaryOperation) and isinstance(child.value.operator, cst.Add) \
                    and isinstance(child.value.left, cst.Name) and isinstance(child.targets[0].target, cst.Name) \
                    and child.value.left.value == child.targets[0].target.value:
                target, value = child.targets[0].target, child.value.right
            if not isinstance(target, cst.Name) or target.value in local or value is None:
                continue
            sequence = isinstance(value, (cst.List, cst.Tuple, cst.ListComp, cst.GeneratorExp)) or (
                isinstance(value, cst.Call) and isinstance(value.func, cst.Name)
                and value.func.value in ("zip", "list", "tuple", "map", "filter", "sorted", "reversed")
            )
            if sequence or self._u_kind(value) == "str":
                grown.append(target)
                if isinstance(child, cst.Assign):
                    grown.append(child.value.left)  # type: ignore[attr-defined]
        return grown

    def _u_counted_listing_loop(self, node: cst.For) -> None:
        """``for i, f in enumerate(files):`` whose count ``i`` only reaches progress
        messages (``if (i + 1) % 100 == 0: print(i + 1, total)``): judged as ``for f in
        files``; when each entry is handled on its own the listing's order is not used."""
        it = node.iter
        if not (isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "enumerate"
                and not self.is_local("enumerate") and len(it.args) == 1  # type: ignore[attr-defined]
                and isinstance(node.target, cst.Tuple) and len(node.target.elements) == 2
                and isinstance(node.target.elements[0].value, cst.Name)):
            return
        index = node.target.elements[0].value.value  # type: ignore[attr-defined]
        entries = {n.value for n in target_names(node.target.elements[1].value)}
        if not only_in_messages(node.body, index, entries):
            return
        inner = it.args[0].value
        root = self._u_listing_root(inner)
        stored = isinstance(inner, cst.Name) and any(inner.value in st.listings for st in self._u_states())
        if root is None and not stored:
            return
        if _stops_early(node.body, cst.Yield):
            return
        if self._u_counted_body_on_its_own(node.body, self._u_loop_locals(node)):
            if stored:
                self._u_claimed.add(id(inner))
            else:
                self._u_unordered.add(id(inner))

    def _u_indexed_listing_loop(self, node: cst.For) -> None:
        """``for i in range(len(files)):`` whose body reads ``files`` only as
        ``files[i]`` and ``i`` only there or in progress messages: judged as ``for f in
        files``; when each entry is handled on its own the listing's order is not used
        (also through a progress bar: ``tqdm(range(len(files)))``)."""
        it = progress_wrapped(node.iter, self.qualify)  # type: ignore[attr-defined]
        if not (type(it) is cst.Call and type(it.func) is cst.Name and it.func.value == "range"
                and not self.is_local("range") and len(it.args) == 1 and type(node.target) is cst.Name):  # type: ignore[attr-defined]
            return
        counted = it.args[0].value
        if not (type(counted) is cst.Call and type(counted.func) is cst.Name and counted.func.value == "len"
                and len(counted.args) == 1 and type(counted.args[0].value) is cst.Name):
            return
        listing = counted.args[0].value.value
        if not any(listing in st.listings for st in self._u_states()):
            return
        index = node.target.value
        entries: list[cst.Name] = []
        read: set[int] = set()  # the index inside `files[i]`
        for child in descendants(node.body):
            if type(child) is cst.Subscript and type(child.value) is cst.Name and child.value.value == listing:
                part = child.slice[0].slice if len(child.slice) == 1 else None
                if not (type(part) is cst.Index and type(part.value) is cst.Name and part.value.value == index):
                    return
                entries.append(child.value)
                read.add(id(part.value))
        mentions = [c for c in descendants(node.body) if type(c) is cst.Name and c.value == listing]
        if len(mentions) != len(entries) or _stops_early(node.body, cst.Yield):
            return
        # the index elsewhere only in progress messages: each `files[i]` stands for the entry
        if not only_in_messages(node.body, index, {listing}, allowed=read):
            return
        if self._u_counted_body_on_its_own(node.body, self._u_loop_locals(node) | {listing}):
            self._u_claimed.update(id(n) for n in (counted.args[0].value, *entries))

    def _u_counted_body_on_its_own(self, body: cst.CSTNode, local: set[str]) -> bool:
        """The body of a counted or indexed loop over a listing handles each entry on its
        own: it grows nothing in entry order, and every call is the entry's own or
        order-free and fills no list (stricter than :meth:`_u_loop_effects`: no call
        counts as a mere test or a submission here)."""
        calls = [c for c in descendants(body) if isinstance(c, cst.Call) and not self._u_per_entry_call(c, local)]
        return not self._u_accumulated(body, local) and all(self._u_order_free(c) and not (
            isinstance(c.func, cst.Attribute) and c.func.attr.value in ("append", "extend", "insert")
        ) for c in calls)

    def _u_loop_locals(self, node: cst.For) -> set[str]:
        """Names that live one iteration: the loop variables, and names the body binds
        afresh before any other binding (``lines = f.readlines()``, ``with open(p) as
        f``; not ``x = x + ...`` nor ``x += ...`` first) that nothing outside the loop
        reads."""
        bound = {n.value for n in target_names(node.target)}
        fresh = _bound_fresh(node.body)
        if fresh:
            scope = enclosing_function(self.module, node)  # type: ignore[attr-defined]
            fresh -= names_read_outside(scope, node) if scope is not None else _module_reads(self.module, node)  # type: ignore[attr-defined]
        return bound | fresh

    def _u_per_entry_call(self, call: cst.Call, local: set[str], entries: frozenset[str] = frozenset()) -> bool:
        """A call that handles this iteration's own objects: a method of a name that lives
        one iteration, or ``open(path)`` of a path built from them, not for appending
        (``open(os.path.join(d, name), "w")`` writes the entry's own file), or for
        appending to a file named after the entry itself (``entries``, the loop's
        targets: ``open(f.replace(".xml", ".txt"), "a")``; entries differ, so their files
        do, unless the path takes only a part of it, such as its folder)."""
        func = call.func
        root = chain_root(func)
        if isinstance(func, cst.Attribute) and isinstance(root, cst.Name) and root.value in local:
            return True
        if isinstance(func, cst.Attribute) and func.attr.value in _SUBMITS:
            return self._u_submitted_on_its_own(call, local)
        if type(func) is cst.Attribute and type(func.value) in (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison):
            # a method of a value computed from this entry's (`(mask * 255).astype("uint8")`)
            made = func.value
            names = variables_read(made, self.qualify)  # type: ignore[attr-defined]
            given = {n for a in call.args if not self._u_fixed(a.value) for n in carried_names(a.value, self.qualify)}  # type: ignore[attr-defined]
            if names and names | given <= local | self._u_function_constants() | self._u_module_constants():
                return all(self._u_per_entry_call(c, local, entries) for c in descendants(made) if type(c) is cst.Call)
        if isinstance(func, cst.Name) and func.value == "open" and not self.is_local("open") and call.args:  # type: ignore[attr-defined]
            path = call.args[0].value
            modes = [a.value for a in call.args[1:2] if a.keyword is None] + [
                a.value for a in call.args if a.keyword is not None and a.keyword.value == "mode"
            ]
            if not any(mentions_of(path, n) for n in local):
                return False
            return not any(self._u_may_append(m) for m in modes) or self._u_entry_path(path, entries)
        inner: cst.BaseExpression = call
        while isinstance(inner, (cst.Attribute, cst.Subscript, cst.Call)):
            if isinstance(inner, cst.Call) and (self.qualify(inner.func) or "") in READS:  # type: ignore[attr-defined]
                return True  # a read (`torch.load(path)`), or a method of what it returned
            inner = inner.value if not isinstance(inner, cst.Call) else inner.func
        if isinstance(func, cst.Attribute):
            made = func.value
            while isinstance(made, (cst.Attribute, cst.Subscript)):
                if type(made) is cst.Subscript and len(made.slice) == 1 and type(made.slice[0].slice) is cst.Index \
                        and type(made.slice[0].slice.value) is cst.Name and made.slice[0].slice.value.value in local \
                        and func.attr.value not in _FILLING_METHODS:
                    # a method of the item this entry keys (`REGISTRY[name].add_args(group)`); not
                    # one that fills it (`groups[label].append(f)`: entries sharing a key
                    # go in in the listing's order)
                    return True
                made = made.value
            if isinstance(made, cst.Call):
                # a method of what a call of this entry returned (`clean(text).encode()`):
                # as that call is
                return self._u_per_entry_call(made, local) or self._u_order_free(made)
        # the names the arguments read (not attribute names, nor modules: `os.path.join(root, f)`)
        arg_names = argument_names(call, self.qualify)  # type: ignore[attr-defined]
        qn = self.qualify(func)  # type: ignore[attr-defined]
        if not arg_names:
            # given constants only, a library call that changes no state of its library
            # (`argparse.ArgumentParser(add_help=False)`: a new object), or the namespace
            # of the module (`globals()`, written by this entry's own key)
            if qn is not None:
                return stateless_call(qn) and not qn.startswith(_SHELL)
            return type(func) is cst.Name and func.value in ("globals", "vars") and not call.args \
                and not self.is_local(func.value)  # type: ignore[attr-defined]
        if qn in ("importlib.import_module", "builtins.__import__", "__import__"):
            # importing the module this entry names: it runs once and registers what it
            # defines under its own names (`importlib.import_module("models." + name)`)
            return True
        if not arg_names & local:
            return False
        # ... other than those only formatted into text (`str(args.rate)` in a command)
        carried = {n for a in call.args if not self._u_fixed(a.value) for n in carried_names(a.value, self.qualify)}  # type: ignore[attr-defined]
        if qn in WRITES_TO_PATH and call.args and call.args[0].keyword is None \
                and variables_read(call.args[0].value, self.qualify) & local:  # type: ignore[attr-defined]
            # a writer of the values it is given to this entry's own file
            # (`wavfile.write(os.path.join(out_dir, name + ".wav"), sampling_rate, wav)`)
            return True
        if qn is not None:
            # a library function given only this entry's values (`Image.open(f)`); a
            # command line that appends to a file (`>>`) writes in the listing's order
            appends = qn.startswith(_SHELL) and any(
                isinstance(c, cst.SimpleString) and ">>" in c.value for c in descendants(call)
            )
            return carried - self._u_module_constants() - self._u_function_constants() <= local and stateless_call(qn) \
                and not appends
        if isinstance(func, cst.Name) and not self.is_local(func.value):  # type: ignore[attr-defined]
            if func.value in ("filter", "map") and len(call.args) == 2 and not call.args[0].star:
                # `filter(keep, utterances)` of this entry's values with a function of
                # this module that touches only what it is given
                given = call.args[1].value
                keep = call.args[0].value
                callee = module_function(self.module, keep.value) if isinstance(keep, cst.Name) else None  # type: ignore[attr-defined]
                reads = carried_names(given, self.qualify)  # type: ignore[attr-defined]
                own = reads <= local or (isinstance(given, cst.Call) and self._u_per_entry_call(given, local))
                if own and type(keep) is cst.Name and keep.value in PURE_BUILTINS | {"round"} \
                        and not self.is_local(keep.value):  # type: ignore[attr-defined]
                    return True  # `map(int, map(round, center))`: a value of this entry's
                return own and callee is not None and touches_only(
                    callee, cst.Call(keep, [cst.Arg(given)]), local | reads, self.qualify, self.module, shows=True)  # type: ignore[attr-defined]
            callee = module_function(self.module, func.value)  # type: ignore[attr-defined]
            return callee is not None and touches_only(  # type: ignore[attr-defined]
                callee, call, local, self.qualify, self.module, shows=True, fixed=self._u_fixed)  # type: ignore[attr-defined]
        return False

    def _u_entry_path(self, path: cst.BaseExpression, entries: frozenset[str]) -> bool:
        """A path built from an entry of the listing itself (``f.replace(".xml", ".txt")``,
        ``os.path.join(out, f + ".txt")``), and from no folder of one (``os.path.dirname(f)``,
        ``p.parent``): each entry's own file."""
        if not any(mentions_of(path, n) for n in entries):
            return False
        for node in descendants(path):
            if type(node) is cst.Attribute and node.attr.value in ("parent", "parents"):
                return False
            if type(node) is cst.Call and (self.qualify(node.func) or "") in _FOLDER_OF:  # type: ignore[attr-defined]
                return False
        return True

    def _u_may_append(self, mode: cst.BaseExpression) -> bool:
        """Whether ``open``'s mode may append: a literal holding "a", or anything but a
        literal or a module name every binding of which is a literal (``writemode = 'wb'``
        on Python 3, ``'w'`` on 2)."""
        if isinstance(mode, cst.SimpleString):
            return "a" in str(mode.evaluated_value)
        if isinstance(mode, cst.Name) and not self.is_local(mode.value):  # type: ignore[attr-defined]
            texts = self._u_module_texts().get(mode.value)
            if texts is not None:
                return any("a" in text for text in texts)
        return True

    def _u_module_texts(self) -> dict[str, frozenset[str]]:
        """The module's names every binding of which, anywhere in it, is a string literal:
        name -> the texts it may hold (none bound by a loop, ``+=``, ``with``, ``global``,
        ``import``, a parameter or a definition)."""
        module = self.module  # type: ignore[attr-defined]
        cached = getattr(self, "_u_texts", None)
        if cached is not None and cached[0] is module:
            return cached[1]  # type: ignore[no-any-return]
        texts: dict[str, set[str]] = {}
        other: set[str] = set()
        for child in descendants(module):
            kind = type(child)
            if kind is cst.Assign:
                literal = len(child.targets) == 1 and type(child.targets[0].target) is cst.Name \
                    and type(child.value) is cst.SimpleString  # type: ignore[attr-defined]
                for target in child.targets:  # type: ignore[attr-defined]
                    for name in target_names(target.target):
                        if literal:
                            texts.setdefault(name.value, set()).add(str(child.value.evaluated_value))  # type: ignore[attr-defined]
                        else:
                            other.add(name.value)
            elif kind in (cst.For, cst.CompFor):
                other.update(n.value for n in target_names(child.target))  # type: ignore[attr-defined]
            elif kind in (cst.AugAssign, cst.AnnAssign, cst.NamedExpr) and type(child.target) is cst.Name:  # type: ignore[attr-defined]
                other.add(child.target.value)  # type: ignore[attr-defined]
            elif kind is cst.AsName and type(child.name) is cst.Name:  # type: ignore[attr-defined]
                other.add(child.name.value)  # type: ignore[attr-defined]
            elif kind in (cst.Param, cst.FunctionDef, cst.ClassDef):
                other.add(child.name.value)  # type: ignore[attr-defined]
            elif kind in (cst.Global, cst.Nonlocal):
                other.update(n.name.value for n in child.names)  # type: ignore[attr-defined]
            elif kind is cst.ImportAlias:
                other.add(child.evaluated_alias or child.evaluated_name.split(".")[0])  # type: ignore[attr-defined]
        found = {name: frozenset(values) for name, values in texts.items() if name not in other}
        self._u_texts = (module, found)
        return found

    def _u_module_constants(self) -> frozenset[str]:
        """The module's names bound once, at its top level, to a literal (``resize_size =
        64``, ``root = 'data/celebA/'``) and declared ``global`` nowhere: a value every
        entry of a loop is given alike."""
        module = self.module  # type: ignore[attr-defined]
        cached = getattr(self, "_u_constants", None)
        if cached is not None and cached[0] is module:
            return cached[1]  # type: ignore[no-any-return]
        bound: dict[str, int] = {}
        constant: set[str] = set()
        for stmt in module.body:
            for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
                targets = small.targets if isinstance(small, cst.Assign) else ()
                for target in targets:
                    for name in target_names(target.target):
                        bound[name.value] = bound.get(name.value, 0) + 1
                if len(targets) == 1 and isinstance(targets[0].target, cst.Name) and _literal(small.value) is not UNKNOWN:
                    constant.add(targets[0].target.value)
            if not isinstance(stmt, cst.SimpleStatementLine):
                for child in descendants(stmt):
                    names = target_names(child.target) if isinstance(child, (cst.For, cst.AugAssign)) else (
                        [n for t in child.targets for n in target_names(t.target)] if isinstance(child, cst.Assign) else [])
                    for name in names:
                        bound[name.value] = bound.get(name.value, 0) + 1
        declared = {n.name.value for c in descendants(module) if isinstance(c, cst.Global) for n in c.names}
        found = frozenset(n for n in constant if bound.get(n) == 1 and n not in declared)
        self._u_constants = (module, found)
        return found

    def _u_fixed(self, value: cst.BaseExpression) -> bool:
        """A value every entry of a loop here is given alike and that no call can change:
        a literal, a name bound once to one (:meth:`_u_module_constants`,
        :meth:`_u_function_constants`), an option's value (``args.size``, of an option
        this module declares), or a tuple of those."""
        kind = type(value)
        if kind is cst.Tuple:
            return all(self._u_fixed(e.value) for e in value.elements)  # type: ignore[attr-defined]
        if kind is cst.Name:
            return value.value in CONSTANT_NAMES or value.value in self._u_module_constants() \
                or value.value in self._u_function_constants()  # type: ignore[attr-defined]
        if kind is cst.Attribute:
            return type(value.value) is cst.Name and value.attr.value in self.facts.arg_defaults  # type: ignore[attr-defined]
        if kind in (cst.Integer, cst.Float, cst.SimpleString, cst.UnaryOperation):
            return _literal(value) is not UNKNOWN
        return False

    def _u_function_constants(self) -> frozenset[str]:
        """The current function's names bound once in its body, to a literal (``img_size =
        96``), that are no parameter and no ``global`` or ``nonlocal`` name: a value every
        entry of a loop in it is given alike."""
        scope = self.scope  # type: ignore[attr-defined]
        body = getattr(scope, "body", None)
        if scope.kind != "function" or body is None:
            return frozenset()
        cache: dict[int, frozenset[str]] = self.__dict__.setdefault("_u_function_constants_memo", {})
        found = cache.get(id(body))
        if found is None:
            bound: dict[str, int] = {}
            constant: set[str] = set()
            shared: set[str] = set(scope.params)
            for child in descendants(body):
                kind = type(child)
                if kind is cst.Assign:
                    for target in child.targets:  # type: ignore[attr-defined]
                        for name in target_names(target.target):
                            bound[name.value] = bound.get(name.value, 0) + 1
                    only = child.targets[0].target if len(child.targets) == 1 else None  # type: ignore[attr-defined]
                    if type(only) is cst.Name and _literal(child.value) is not UNKNOWN:  # type: ignore[attr-defined]
                        constant.add(only.value)
                elif kind in (cst.For, cst.CompFor, cst.AugAssign, cst.AnnAssign):
                    for name in target_names(child.target):  # type: ignore[attr-defined]
                        bound[name.value] = bound.get(name.value, 0) + 1
                elif kind is cst.AsName:
                    for name in target_names(child.name):  # type: ignore[attr-defined]
                        bound[name.value] = bound.get(name.value, 0) + 1
                elif kind in (cst.Global, cst.Nonlocal):
                    shared.update(n.name.value for n in child.names)  # type: ignore[attr-defined]
                elif kind in (cst.FunctionDef, cst.ClassDef):
                    shared.add(child.name.value)  # type: ignore[attr-defined]
            found = cache[id(body)] = frozenset(n for n in constant if bound.get(n) == 1 and n not in shared)
        return found

    def _u_submitted_on_its_own(self, call: cst.Call, local: set[str]) -> bool:
        """``pool.apply_async(worker, args=(path, cfg))`` or ``executor.submit(worker, path,
        cfg)`` in a loop: a worker process or thread runs a function of this module that
        changes nothing but what this entry gives it (``touches_only``; a configuration it
        only reads counts as given); a callback may only advance a progress bar
        (``lambda _: bar.update(1)``)."""
        positional = [a for a in call.args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        if any(a.star for a in call.args) or not positional:
            return False
        if call.func.attr.value == "submit":  # type: ignore[attr-defined]
            if keywords:
                return False
            given = [a.value for a in positional[1:]]
        else:
            packed = keywords.get("args", positional[1].value if len(positional) > 1 else None)
            if len(positional) > 2 or "kwds" in keywords or set(keywords) - {"args", "callback", "error_callback"}:
                return False
            if packed is not None and type(packed) not in (cst.Tuple, cst.List):
                return False
            given = [e.value for e in packed.elements] if packed is not None else []  # type: ignore[union-attr]
            for name in ("callback", "error_callback"):
                if name in keywords and not _progress_only(keywords[name]):
                    return False
        return self._u_worker_on_its_own(positional[0].value, given, local)

    def u_displays(self, call: cst.Call) -> bool:
        """Whether ``call`` draws a figure (``sns.lineplot(...)``, ``ax[i].plot(...)`` of an
        ``ax`` a plotting call made; see ``shown_only``): the order it is drawn in reaches
        no result."""
        shown = self._u_shown_only()
        return shown is not None and shown.draws(call)

    def _u_order_free(self, call: cst.Call) -> bool:
        """Calls whose effect does not depend on the order of the loop (file operations,
        logging, string tests, adding to a set, drawing a figure)."""
        qn = self.qualify(call.func) or ""  # type: ignore[attr-defined]
        if qn.startswith(("os.", "shutil.", "logging.", "pathlib.", "multiprocessing.", "concurrent.futures.")) \
                or self.u_displays(call):
            return True
        func = call.func
        if qn.startswith(("re.", "glob.escape")):
            return True
        if isinstance(func, cst.Name):
            return func.value in _ORDER_FREE_FUNCTIONS
        if isinstance(func, cst.Attribute):
            return func.attr.value in _ORDER_FREE_METHODS
        return False


def _nothing(node: cst.BaseExpression) -> bool:
    """An empty list or tuple, or None: a value with no entries to order."""
    return (type(node) in (cst.List, cst.Tuple) and not node.elements) or (  # type: ignore[attr-defined]
        type(node) is cst.Name and node.value == "None"  # type: ignore[attr-defined]
    )


def _bound_fresh(body: cst.CSTNode) -> set[str]:
    """Names whose first binding in ``body`` (in the order it runs) binds them afresh:
    an assignment whose value does not read them (``lines = f.readlines()``), a ``with
    ... as`` or loop target; not ``x = x + ...`` nor ``x += ...`` first. Their values
    from before ``body`` are not read after such a binding (unless read before it: the
    callers check where)."""
    first: dict[str, bool] = {}  # name -> its first binding in the body is fresh
    for child in walk_in_order(body):
        if isinstance(child, cst.Assign):
            for target in child.targets:
                for name in target_names(target.target):
                    first.setdefault(name.value, not mentions_of(child.value, name.value))
        elif isinstance(child, cst.AugAssign) and isinstance(child.target, cst.Name):
            first.setdefault(child.target.value, False)
        elif isinstance(child, cst.WithItem) and child.asname is not None:
            for name in target_names(child.asname.name):  # type: ignore[arg-type]
                first.setdefault(name.value, True)
        elif isinstance(child, (cst.For, cst.CompFor)):
            for name in target_names(child.target):
                first.setdefault(name.value, True)
    return {name for name, is_fresh in first.items() if is_fresh}


def _bound_before_read(statement: cst.CSTNode) -> set[str]:
    """The names a statement surely binds before it reads them, in the order it runs
    (``with open(q) as f: f.read()``, ``for line in lines: out = ...; out.write(line)``):
    the statement reads the values it binds, not those from before it. A binding under
    an ``if``, ``try`` or ``while`` may not happen: it binds nothing surely."""
    first: dict[str, bool] = {}  # name -> bound (True) or read (False) first

    def bind(target: cst.CSTNode, surely: bool) -> None:
        for name in target_names(target):  # type: ignore[arg-type]
            first.setdefault(name.value, surely)

    def visit(node: cst.CSTNode, surely: bool) -> None:
        kind = type(node)
        if kind is cst.Name:
            first.setdefault(node.value, False)  # type: ignore[attr-defined]
        elif kind is cst.Attribute:
            visit(node.value, surely)  # type: ignore[attr-defined]
        elif kind is cst.Arg:
            visit(node.value, surely)  # type: ignore[attr-defined]
        elif kind is cst.Assign:
            visit(node.value, surely)  # type: ignore[attr-defined]
            for target in node.targets:  # type: ignore[attr-defined]
                if type(target.target) in (cst.Name, cst.Tuple, cst.List):
                    bind(target.target, surely)
                else:
                    visit(target.target, surely)
        elif kind is cst.For or kind is cst.CompFor:
            visit(node.iter, surely)  # type: ignore[attr-defined]
            bind(node.target, surely)  # type: ignore[attr-defined]
            for part in children(node):
                if part is not node.iter and part is not node.target:  # type: ignore[attr-defined]
                    visit(part, surely)
        elif kind is cst.WithItem:
            visit(node.item, surely)  # type: ignore[attr-defined]
            if node.asname is not None:  # type: ignore[attr-defined]
                bind(node.asname.name, surely)  # type: ignore[attr-defined]
        elif kind in (cst.If, cst.Try, cst.While, cst.IfExp, cst.BooleanOperation):
            for part in children(node):
                visit(part, False)
        elif kind not in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            for part in children(node):
                visit(part, surely)
        else:
            for part in descendants(node):  # code of its own, run later: reads only
                if type(part) is cst.Name:
                    first.setdefault(part.value, False)

    visit(statement, True)
    return {name for name, bound in first.items() if bound}


def _module_reads(module: cst.Module, loop: cst.CSTNode) -> set[str]:
    """Names a module's code reads outside ``loop`` as its globals, after the top-level
    statement that holds it or in a function or a
    method, not a name it binds itself (a parameter, an assignment, a loop variable) unless
    it declares it ``global`` (``def register(model_name): ...`` reads its own
    ``model_name``, not the module's)."""
    found: set[str] = set()
    # top-level code that ran before the statement holding the loop reads none of the
    # loop's bindings (`with open(names) as f: ...`, then `with open(entry) as f:` in it)
    at = next((i for i, s in enumerate(module.body) if s is loop or any(d is loop for d in descendants(s))), 0)
    stack: list[cst.CSTNode] = [s for i, s in enumerate(module.body) if i >= at or isinstance(s, (cst.ClassDef, cst.FunctionDef))]
    after = {id(s) for s in module.body[at + 1:]}
    while stack:
        current = stack.pop()
        if isinstance(current, cst.ClassDef):
            stack.extend(current.body.body)  # type: ignore[arg-type]
        elif isinstance(current, cst.FunctionDef):
            params = current.params
            own = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
            own |= {p.name.value for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)}
            own |= _names_bound_in(current.body)
            declared = {n.name.value for g in descendants(current.body) if type(g) is cst.Global for n in g.names}
            found |= names_read_outside(current, None) - (own - declared)
        elif id(current) in after:
            # a later statement that binds a name afresh before it reads it (`with open(q)
            # as f:` again) reads its own value, not the loop's
            found |= names_read_outside(current, loop) - _bound_before_read(current)
        else:
            found |= names_read_outside(current, loop)
    return found


def _names_bound_in(body: cst.CSTNode) -> set[str]:
    """The names a function body binds: assignment, loop and ``with`` targets."""
    bound: set[str] = set()
    for child in descendants(body):
        if isinstance(child, cst.AssignTarget):
            bound |= {n.value for n in target_names(child.target)}
        elif isinstance(child, (cst.AugAssign, cst.AnnAssign, cst.For)):
            bound |= {n.value for n in target_names(child.target)}
        elif isinstance(child, cst.AsName):
            bound |= {n.value for n in target_names(child.name)}  # type: ignore[arg-type]
    return bound


def _position_counter(body: cst.CSTNode, local: set[str]) -> bool:
    """Whether ``body`` steps a name bound outside the loop (``index += 1``) and also reads
    it otherwise (``f"shard_{index:04d}.tar"``): each entry gets the number its place gives
    it. A count only read after the loop (``converted += 1``) pairs nothing."""
    stepped = {c.target.value for c in descendants(body)
               if type(c) is cst.AugAssign and type(c.target) is cst.Name and c.target.value not in local
               and isinstance(c.operator, (cst.AddAssign, cst.SubtractAssign))}
    if not stepped:
        return False
    targets = {id(c.target) for c in descendants(body) if type(c) is cst.AugAssign}
    return any(type(c) is cst.Name and c.value in stepped and id(c) not in targets for c in descendants(body))
