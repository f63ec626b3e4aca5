from __future__ import annotations

from typing import Any, Iterator, Optional

import libcst as cst

from reprolint import fixes
from reprolint.analysis.condition_facts import TEXT_ARGUMENT
from reprolint.analysis.site_runs import (
    DEMOS, LIBRARY_CODE, SKIPPED, build_script, sites_run, uncalled_helper, unimported_module,
)
from reprolint.analysis.usage_events import SetOrderTaken
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.fixes.planning import FixAction, FixPlanner, data_field, node_code, sorted_call
from reprolint.model import Applicability, Diagnostic, Related, Span


class SetIterationOrder(Rule):
    """
    ## What it does
    Reports order taken from a `set`/`frozenset` of str or bytes (`list(set(words))`,
    `for w in set(...)`, a vocabulary built from a set).

    Order-taking uses: `list(...)`, `tuple(...)`, `enumerate`, `zip`, `iter`/`next`,
    `dict.fromkeys`, `"sep".join(...)`, `np.array`/`torch.tensor`, a `for` loop, a list,
    generator or dict comprehension over the set, and `s.pop()`. Not reported:
    `sorted(...)` (also `classes = list(set(...))` that the next statement using `classes`
    sorts in place, `classes.sort()`), `len`, membership, `sum`/`min`/`max`/`any`/`all`, `Counter`, set
    algebra and set comprehensions (their result is again a set).

    Whether a set holds text is inferred locally: set displays with string literals;
    `set(...)`/`frozenset(...)`/set comprehensions over text (`.split()`,
    `.splitlines()`, `.readlines()`, a file opened with `with open(...) as f`, a string,
    `re.findall`, a list of strings, loop variables over those); names bound to such
    sets, including `s = set()` later filled with `s.add(word)`/`s.update(tokens)`; set
    algebra on them; the element at a literal position of an iterable of text
    (`line.split("\t")[1]`, so a column of a tab-separated file; `vocab[word]` may be a
    dict lookup and is not text); NumPy arrays of str (`np.array(words)`,
    `np.loadtxt(f, dtype=str)`, `labels.astype(str)`: their `np.str_` elements hash like
    `str`); the words of tokenised documents flattened by a nested comprehension or
    generator (`set(w for doc in docs for w in doc)` where `docs` holds `line.split()`
    lists), so class maps such as `{c: i for i, c in enumerate(set(tags))}` are seen;
    and, as a heuristic, iterables named `words`, `tokens`, `chars`,
    `vocab`, `tags`, `class_names`, `label_names`, `categories`, `filenames`,
    `sentences`, `stopwords`; the keys of an object read with `json.load`/`json.loads`.
    A difference `a - b` holds `a`'s elements (`set(device_map.values()) - {"cpu"}` is
    not text). Sets of numbers are fine (ints hash to themselves) and a set whose
    element type is unknown is not reported, except a set made of a function's parameter
    (`def encode_onehot(labels): classes = set(labels)`) where every call of the
    function that the programs make passes text (a NumPy array of str such as a column
    `table[:, -1]` of `np.genfromtxt(path, dtype=str)`, a list of words).

    Order-free uses are not reported: a set joined or iterated only inside a message
    (the arguments of `warnings.warn`, a logger's `warning`/`info`/..., a
    `raise`), a `for` loop whose body only handles each element on its own
    (`d[key] = f(d[key])`, `del d[key]`, `s.add(...)`, or a recursive call of the
    enclosing function for the element when that function grows no list or file, yields,
    prints, accumulates nor calls anything but str/dict reads, a clean-up of each child
    module; or a call of a function of the module that changes nothing but what it is given
    of the element, `download_model(name)` fetching each checkpoint to its own file;
    such statements may stand under an `if` that only tests, `if f"net.{name}" in
    params:`), and
    a search that at most one element can satisfy (`if x == c: ...; break`;
    `x.startswith(c)`/`endswith(c)` over literal strings none of which is a prefix/suffix
    of another, such as `{"r", "u", "f", "b"}`). Nor is a use on a branch that every
    program reaching it skips with the default options (`if args.task == "export":`),
    as for RPL402. The uses of one named set (`vocab`, bound
    in one function or at module level) are one cause: one finding at the first, the
    others its related locations, and its fix sorts each. Reported in library code too, not in test
    modules (what a test runner collects: test functions or classes in `tests/`,
    `test_*.py`, pytest/unittest modules; and their helpers) unless `include-tests`, nor
    where only demo programs run it (a package module's `__main__` smoke demo, a `demo_*`
    script: what a demo prints is no result, as RPL101 does not report a demo's draws),
    nor in a packaging script (a module that imports `setuptools` or `distutils`), nor in
    a function of a helper module beside the scripts (no `__init__.py`) that none of them
    calls, nor in a module of the programs' package that none of them imports (see
    RPL402).

    ## Why is this bad?
    `str` and `bytes` hashes are salted per process (`PYTHONHASHSEED`), so a set of
    strings iterates in a different order on every run: a vocabulary built from it
    assigns different ids, a class list maps labels differently, a data split takes
    different samples — the trained model differs.

    Mitigation: `sorted(set(...))`, or `dict.fromkeys(items)` on the original list to
    deduplicate in first-seen order.

    ## Example
    ```python
    chars = list(set(text))
    stoi = {c: i for i, c in enumerate(chars)}
    ```

    Use instead:
    ```python
    chars = sorted(set(text))
    stoi = {c: i for i, c in enumerate(chars)}
    ```

    ## Fix safety
    Safe: the set's order was whatever `PYTHONHASHSEED` gave, so the sorted order is one
    the original could have produced (ids in a vocabulary saved by an earlier run may
    differ); from then on every run agrees. `list(s)` becomes `sorted(s)`; elsewhere the set is wrapped.
    Where the set is `set(name)` of a name the module binds once, to a list (a list
    display or comprehension, `list(...)`, `.split()`, `.readlines()`), the set becomes
    `dict.fromkeys(name)` instead: the list's first-seen order, deduplicated (also safe:
    one of the orders the program could get). No
    fix for `s.pop()` or `zip(...)` (which argument is the set is not known).

    ## References
    - https://docs.python.org/3/reference/datamodel.html#object.__hash__
    - https://docs.python.org/3/using/cmdline.html#envvar-PYTHONHASHSEED
    """

    code = "RPL401"
    message = "`{expression}` takes the order of a set of strings, which changes with `PYTHONHASHSEED`"
    messages = {
        "for": "`for ... in {expression}` iterates a set of strings, whose order changes with `PYTHONHASHSEED`",
        "comprehension": "a comprehension over `{expression}` takes the order of a set of strings, which changes with `PYTHONHASHSEED`",
        "pop": "`{expression}` removes an arbitrary element of a set of strings, which changes with `PYTHONHASHSEED`",
    }
    fix_title = "Wrap the set in `sorted(...)`"
    fix_applicability = Applicability.SAFE
    framework = "python"

    VALID = [
        Valid("words = open('a').read().split()\nvocab = sorted(set(words))\n"),
        Valid("words = open('a').read().split()\nn = len(set(words))\nok = 'x' in set(words)\n"),
        Valid("ids = [3, 1, 2]\nprint(list(set(ids)))\n"),
        Valid("import numpy as np\nids = np.array([3, 1, 2])\nprint(list(set(ids)))\n"),
        Valid("docs = [l.split() for l in open('a')]\nitos = sorted(set(w for d in docs for w in d))\n"),
        Valid("a = {'x', 'y'}\nb = {'y'}\nif a - b:\n    print(sorted(a | b))\n"),
        Valid("seen = set()\nfor w in open('a').read().split():\n    seen.add(w)\nprint(sorted(seen))\n"),
    ]
    INVALID = [
        Invalid("text = open('input.txt').read()\nchars = list(set(text))\n", line=2,
            fixed=(
                "text = open('input.txt').read()\nchars = sorted(set(text))\n"
            ),
        ),
        Invalid("for w in {'cat', 'dog'}:\n    print(w)\n", line=1),
        Invalid(
            "words = open('a').read().split()\nvocab = list(set(words))\n", line=2,
            fixed="words = open('a').read().split()\nvocab = list(dict.fromkeys(words))\n",
        ),
        Invalid(
            "docs = [l.split() for l in open('a')]\nitos = list(set(w for d in docs for w in d))\n", line=2,
            message="`list(set(w for d in docs for w in d))` takes the order of a set of strings",
        ),
        Invalid(
            "import numpy as np\nnames = np.loadtxt('y.txt', dtype=str)\nidx = {c: i for i, c in enumerate(set(names))}\n",
            line=3,
        ),
        Invalid(
            "tokens = []\nvocab = {w: i for i, w in enumerate(set(tokens))}\n", line=2,
        ),
        Invalid("with open('a') as f:\n    lines = set(f.readlines())\nprint(', '.join(lines))\n", line=3),
        Invalid(
            "labels = set()\nfor row in open('a'):\n    labels.add(row.strip())\nclasses = [c for c in labels]\n",
            line=4,
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        runs = sites_run(ctx, SetOrderTaken)
        for path, facts in ctx.facts.items():
            if ctx.index.is_test(path) and not ctx.settings.include_tests:
                continue  # a test's loop order reaches no training result
            if build_script(ctx, path):
                continue  # a packaging script: what it builds, no training result
            if unimported_module(ctx, path):
                continue  # a module of the programs' package that none of them imports
            # One cause, one finding: the uses of one named set (`vocab`) are reported
            # at the first, with the others as related locations; its fix sorts them all.
            groups: dict[Any, list[Any]] = {}
            for finding in facts.findings:
                if finding.code == self.code:
                    run = runs.get((path, finding.span), LIBRARY_CODE)
                    how = run.how
                    if uncalled_helper(ctx, path, run, finding.data.get("in_function")):
                        continue  # a helper module's function none of the scripts beside it calls
                    if how == SKIPPED:
                        continue  # the programs that reach it skip it with the default options
                    if how == DEMOS:
                        continue  # only demos run it: their output is no training result
                    if any(not passed_text(ctx, path, need) for need in finding.data.get("needs", ())):
                        continue  # a set of a parameter that some call does not give text
                    key = finding.data.get("of")
                    groups.setdefault(key if key is not None else id(finding), []).append(finding)
            for members in groups.values():
                members.sort(key=lambda f: (f.span.start_line, f.span.start_col))
                first, rest = members[0], members[1:]
                data = {k: v for k, v in first.data.items() if k not in ("of", "needs", "in_function")}
                entries = list(dict.fromkeys(e for f in members for e in runs.get((path, f.span), LIBRARY_CODE).entries))
                if not rest:
                    yield self.report(path, first.span, entry_points=entries, **data)
                    continue
                name = str(first.data["of"]).partition(":")[2]
                yield self.report(
                    path, first.span, **data, entry_points=entries,
                    related=[Related(path, f.span, f"the order of `{name}` is taken here too") for f in rest],
                    also=[[f.span.start_line, f.span.start_col, f.span.end_line, f.span.end_col, f.data.get("variant")]
                          for f in rest if f.data.get("variant") != "pop"],
                )


def passed_text(ctx: CheckContext, path: str, need: str) -> bool:
    """Every call of ``<function>.<parameter>`` (``need``) that the programs make binds
    the parameter to text (TEXT_ARGUMENT), and there is at least one such call."""
    function, _, param = need.rpartition(".")
    calls = [bindings for program in ctx.all_programs for bindings in program.call_bindings.get((path, function), ())]
    return bool(calls) and all(dict(bindings).get(param) == TEXT_ARGUMENT for bindings in calls)


# ----------------------------------------------------------------------------- fix


@SetIterationOrder.fix_planner
def _plan_set_order(planner: FixPlanner, d: Diagnostic) -> Optional[FixAction]:
    """RPL401: ``sorted(...)`` around the set (``list(s)`` becomes ``sorted(s)``)."""
    variant = data_field(d, "variant")
    if variant == "pop":
        return None  # `s.pop()`: which element to take is the program's choice
    module = planner.module(d.path)
    if module is None:
        return None
    located = fixes.find_node(module, d.span, (cst.BaseExpression,))
    if located is None:
        return None
    node = located.node
    if _sorted_change(node, variant) is None:
        return None  # `zip(s, t)`: which argument is the set is not known
    deduplicated = _set_of_a_list(module, node)
    if deduplicated is not None:
        # The elements came from a list: keep its first-seen order instead of sorting.
        def first_seen(found: cst.CSTNode) -> cst.CSTNode:
            target = _set_of_a_list(module, found)
            if target is None:
                return found
            fromkeys = cst.Call(func=cst.Attribute(value=cst.Name("dict"), attr=cst.Name("fromkeys")), args=target.args)
            if found is target:
                return fromkeys
            assert isinstance(found, cst.Call)  # the call taking the set's order
            first, *rest = found.args
            return found.with_changes(args=[first.with_changes(value=fromkeys), *rest])

        return FixAction(
            d.path, ("fromkeys", d.span), planner.applicability(d.code),
            "Deduplicate in first-seen order with `dict.fromkeys(...)`",
            lambda m: fixes.rewrite(m, d.span, first_seen, (type(node),)),
        )
    # the other uses of the same named set (one finding): each is sorted the same way
    sites = [(d.span, (type(node),), _sort_site(variant)), *(
        (Span(*at[:4]), (cst.Call if at[4] is None else cst.Name,), _sort_site(at[4]))
        for at in data_field(d, "also") or ())]
    return FixAction(
        d.path, ("sorted", d.span), planner.applicability(d.code), "Wrap the set in `sorted(...)`",
        lambda m: fixes.rewrite_each(m, sites),
    )


def _sort_site(variant: Optional[str]) -> Any:
    """The change that sorts one use of a set (a use of a kind no fix handles, such as
    `zip(s, t)`, is left as it is)."""
    def change(node: cst.CSTNode) -> cst.CSTNode:
        sort = _sorted_change(node, variant)
        return sort(node) if sort is not None else node
    return change


def _sorted_change(node: cst.CSTNode, variant: Optional[str]) -> Optional[Any]:
    """How one use of a set gets its order from ``sorted``: ``list(s)`` becomes
    ``sorted(s)``, ``f(s)`` becomes ``f(sorted(s))`` and a loop's or comprehension's set
    is wrapped. None for ``zip(...)``: which argument is the set is not known."""
    if isinstance(node, cst.Call) and variant is None:  # `f(s)` takes the set's order
        if node_code(node.func) == "zip":
            return None

        def change(call: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(call, cst.Call)
            if isinstance(call.func, cst.Name) and call.func.value in ("list", "sorted") and len(call.args) == 1:
                return call.with_changes(func=cst.Name("sorted"))
            positional = [a for a in call.args if a.keyword is None and not a.star]
            if not positional:
                return call
            target = positional[0]
            return call.with_changes(
                args=[a.with_changes(value=sorted_call(a.value)) if a is target else a for a in call.args]
            )
        return change

    def wrap(expression: cst.CSTNode) -> cst.CSTNode:
        return sorted_call(expression)  # type: ignore[arg-type]
    return wrap


_LIST_METHODS = ("split", "splitlines", "readlines", "rsplit")


def _set_of_a_list(module: cst.Module, node: cst.CSTNode) -> Optional[cst.Call]:
    """The ``set(name)`` in ``node`` (``node`` itself, or the first argument of the call
    taking its order) whose ``name`` the module binds once, to a list (a list display or
    comprehension, ``list(...)``, ``.split()``, ``.readlines()``): None otherwise."""
    candidate: cst.CSTNode = node
    if isinstance(node, cst.Call) and not _is_set_call(node) and node.args:
        candidate = node.args[0].value
    if not (isinstance(candidate, cst.Call) and _is_set_call(candidate)):
        return None
    [argument] = candidate.args
    if argument.star or not isinstance(argument.value, cst.Name):
        return None
    name = argument.value.value
    values = []
    for found, _ in fixes.walk(module):
        if isinstance(found, cst.Assign):
            values += [found.value for t in found.targets if isinstance(t.target, cst.Name) and t.target.value == name]
            if any(not isinstance(t.target, cst.Name) and name in node_code(t.target) for t in found.targets):
                return None  # unpacked or subscripted: not one plain binding
        elif isinstance(found, (cst.AugAssign, cst.AnnAssign, cst.For, cst.Param, cst.WithItem, cst.NamedExpr)):
            target = getattr(found, "target", None) or getattr(found, "name", None) or getattr(found, "asname", None)
            if target is not None and name in node_code(target).replace("as ", " ").split():
                return None
    if len(values) != 1:
        return None
    value = values[0]
    if isinstance(value, (cst.List, cst.ListComp)):
        return candidate
    if isinstance(value, cst.Call):
        func = value.func
        if isinstance(func, cst.Attribute) and func.attr.value in _LIST_METHODS:
            return candidate
        if isinstance(func, cst.Name) and func.value == "list":
            return candidate
    return None


def _is_set_call(node: cst.Call) -> bool:
    return isinstance(node.func, cst.Name) and node.func.value == "set" and len(node.args) == 1 and node.args[0].keyword is None


@SetIterationOrder.fix_prechecker
def _set_order_available(planner: FixPlanner, d: Diagnostic) -> Optional[bool]:
    if data_field(d, "variant") == "pop":
        return False
    return not (data_field(d, "variant") is None and data_field(d, "function") == "zip")
