"""Facts of branch conditions: the ``if`` tests on the way to an event, as the small
tree language of :class:`~reprolint.analysis.module_facts.Cond` that the program model
evaluates with the option defaults, and the ``if __name__ == "__main__":`` guard.

:class:`ConditionFacts` is mixed into the fact collector of
:mod:`reprolint.analysis.facts`; it uses the collector's stack of enclosing conditions
(``conds``), its scopes and module constants and its helpers ``text`` and ``span``.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import libcst as cst

from reprolint.analysis.config_files import CONFIG, config_key, config_path
from reprolint.analysis.cst_helpers import literal as _literal
from reprolint.analysis.module_facts import Cond
from reprolint.analysis.values import UNKNOWN

# Libraries a module loads its configuration with, before the analysis has seen where
_LOADERS = frozenset({"hydra", "omegaconf"})

__all__ = ["DEFAULTS", "NO_GRAD_ARGUMENT", "SOME_VALUE", "SPREAD", "TEST_ARGUMENT", "TEXT_ARGUMENT", "VIA", "ConditionFacts", "env_default", "is_main_guard"]

# The binding a call with `*args` or `**kwargs` carries: it may pass any parameter.
SPREAD = "*"
# A call's bindings hold this name when the call passes every argument visibly (no
# `*args`/`**kwargs`): a parameter it leaves out takes the callee's default.
DEFAULTS = "**defaults"
# What a call binds a parameter to when it passes a tensor no gradient can flow through
# (a registered buffer, a fresh or detached tensor): a backward-only kernel of an op on
# that parameter never runs (checks/ops/_ops.py); conditions read it as unknown.
NO_GRAD_ARGUMENT = ("nograd",)
# A parameter of the calling function passed on, where the caller's own call is not
# known: (VIA, file, qualname, parameter) (analysis/execution.py's _passed_on)
VIA = "via"
# What a call binds a parameter to when it passes text or an iterable of text (a NumPy
# array of str, a list of words): a set made of that parameter is a set of text, whose
# order changes with string hashing (checks/order/set_iteration_order.py).
TEXT_ARGUMENT = ("text",)
# What a call binds a parameter to when it passes a value that is never None (a
# container, a literal, what a library call returns: `run_episode(env, policy)` of a
# `policy = np.zeros(n)`): `if policy is None:` is false on that call; its truth and
# contents are not known.
SOME_VALUE = ("value",)
# The head of what a call binds a parameter to when it passes a test (a comparison, a
# boolean operation, or a local bound once to one): (TEST_ARGUMENT, condition tree); the
# parameter holds the test's truth under the default options, unknown where it is not
# decided (the caller's own parameters in it count as unknown).
TEST_ARGUMENT = "test"


def is_main_guard(test: cst.BaseExpression) -> bool:
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    target = test.comparisons[0]
    if not isinstance(target.operator, cst.Equal):
        return False
    sides = (test.left, target.comparator)
    names = [s for s in sides if isinstance(s, cst.Name) and s.value == "__name__"]
    strings = [s for s in sides if _literal(s) == "__main__"]
    return bool(names) and bool(strings)


def _absent_value_test(test: cst.BaseExpression) -> bool:
    """``x is None``, ``x == None`` or ``not x`` for a plain name ``x``."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return isinstance(test.expression, cst.Name)
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        comparison = test.comparisons[0]
        return isinstance(test.left, cst.Name) and isinstance(comparison.operator, (cst.Is, cst.Equal)) \
            and isinstance(comparison.comparator, cst.Name) and comparison.comparator.value == "None"
    return False


def _last_small(body: cst.BaseSuite) -> Optional[cst.BaseSmallStatement]:
    """A block's last simple statement (``return``, ``exit()``...), if it ends with one."""
    statements = body.body if isinstance(body, cst.IndentedBlock) else [body]
    last = statements[-1] if statements else None
    return last.body[-1] if isinstance(last, cst.SimpleStatementLine) and last.body else None


def _always_leaves(body: cst.BaseSuite) -> bool:
    """Whether a block ends by leaving its function (``return`` or ``raise`` last)."""
    return isinstance(_last_small(body), (cst.Return, cst.Raise))


class ConditionFacts:
    """The branch conditions of the fact collector."""

    cond_texts: dict[int, str]
    conds: list[tuple[Any, bool, cst.BaseExpression]]
    module_consts: dict[str, Any]
    scopes: list[Any]

    def current_conds(self) -> tuple[Cond, ...]:
        """The enclosing branch conditions that defaults can decide, with their text."""
        out = []
        for tree, polarity, test in self.conds:
            if tree == ("unknown",):
                continue  # can never be shown false by defaults: not worth its text
            key = id(test)
            if key not in self.cond_texts:
                self.cond_texts[key] = self.text(test)  # type: ignore[attr-defined]
            out.append(Cond(tree, polarity, self.cond_texts[key]))
        return tuple(out)

    def located_conds(self) -> tuple[Cond, ...]:
        """:meth:`current_conds` with where each condition is written."""
        out = []
        for tree, polarity, test in self.conds:
            if tree == ("unknown",):
                continue
            key = id(test)
            if key not in self.cond_texts:
                self.cond_texts[key] = self.text(test)  # type: ignore[attr-defined]
            out.append(Cond(tree, polarity, self.cond_texts[key], self.span(test)))  # type: ignore[attr-defined]
        return tuple(out)

    def visit_IfExp(self, node: cst.IfExp) -> bool:
        # `torch.manual_seed(args.seed) if args.seed else None`: each branch runs under
        # its condition, like an `if` statement's
        self.u_truth_test(node.test)  # type: ignore[attr-defined]
        self.walk(node.test)  # type: ignore[attr-defined]
        tree = self.cond_tree(node.test)
        self.conds.append((tree, True, node.test))
        self.walk(node.body)  # type: ignore[attr-defined]
        self.conds.pop()
        self.conds.append((tree, False, node.test))
        self.walk(node.orelse)  # type: ignore[attr-defined]
        self.conds.pop()
        return False

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> bool:
        # `self.augment and np.random.random() < 0.5`: the right side runs only when the
        # left is true (false for `or`), like the body of an `if` on it
        self.walk(node.left)  # type: ignore[attr-defined]
        self.conds.append((self.cond_tree(node.left), isinstance(node.operator, cst.And), node.left))
        self.walk(node.right)  # type: ignore[attr-defined]
        self.conds.pop()
        return False

    def walk_block(self, body: Any) -> None:
        """Walk a block's statements in order. ``if seed is None: return`` (or raise):
        what follows in the block runs only when the value was given, as if it were the
        ``else:`` of that ``if`` (only for a test of a missing value, the idiom of
        optional arguments: an early return on an option such as ``if args.evaluate:
        ...; return`` is left as it was). After an ``if`` whose block ends the program
        (``if args.validate is False: exit()``), what follows runs only when its test is
        false. After ``assert <test>``, what follows runs
        only when the test holds (seen by the order analyses; the default run's option
        values do not decide through it)."""
        pushed = 0
        for statement in body:
            self.walk(statement)  # type: ignore[attr-defined]
            if isinstance(statement, cst.If) and statement.orelse is None and (
                (_absent_value_test(statement.test) and _always_leaves(statement.body))
                or self._ends_program(statement.body)
            ):
                self.conds.append((self.cond_tree(statement.test), False, statement.test))
                pushed += 1
            elif isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 \
                    and isinstance(statement.body[0], cst.Assert):
                # `assert len(files) == 1, ...`: what follows runs only when it holds (for
                # what the block does with the value: one element). Not for the default
                # run's options: `assert args.base_model, "pass --base_model"` checks a
                # value the documented command gives, so the tree is left unknown.
                test = statement.body[0].test
                self.conds.append((("unknown",), True, test))
                pushed += 1
        for _ in range(pushed):
            self.conds.pop()

    def _ends_program(self, body: cst.BaseSuite) -> bool:
        """Whether a block ends the program (``exit()``, ``quit()``, ``sys.exit(...)``,
        ``os._exit(...)`` or ``raise SystemExit`` last): what follows the ``if`` runs only
        when its test is false (``if args.validate is False: exit()``, on a default run)."""
        small = _last_small(body)
        if isinstance(small, cst.Raise) and small.exc is not None:
            raised = small.exc.func if isinstance(small.exc, cst.Call) else small.exc
            return isinstance(raised, cst.Name) and raised.value == "SystemExit"
        if not (isinstance(small, cst.Expr) and isinstance(small.value, cst.Call)):
            return False
        func = small.value.func
        if isinstance(func, cst.Name) and func.value in ("exit", "quit"):
            return not self.is_local(func.value)  # type: ignore[attr-defined]
        return (self.qualify(func) or "") in ("sys.exit", "os._exit")  # type: ignore[attr-defined]

    def _bindings(self, node: cst.Call) -> tuple[tuple[str, Any], ...]:
        """The arguments of a project call whose value is a literal or an option
        (``bilinear=args.bilinear``, or ``args.seed`` by its place): what the callee's
        conditions on those parameters see on this call."""
        out = []
        positional = True
        for index, arg in enumerate(node.args):
            if arg.star:
                # `*args`, `**kwargs`: the places after it are not known, and the spread
                # may pass any parameter (the callee's own calls then keep no default)
                positional = False
                out.append((SPREAD, ("unknown",)))
                continue
            if arg.keyword is None and not positional:
                continue
            # a positional argument is bound by its place ("#0"), named once the callee is known
            name = arg.keyword.value if arg.keyword is not None else f"#{index}"
            value = _literal(arg.value)
            tree: Any = ("unknown",)  # passed, its value not known: the default does not hold
            if value != UNKNOWN:
                tree = ("const", value)
            elif isinstance(arg.value, cst.Attribute) and isinstance(arg.value.value, cst.Name) \
                    and arg.value.value.value not in ("self", "cls"):
                tree = ("attr", arg.value.attr.value)
            elif isinstance(arg.value, cst.Name):
                # a module constant, or a parameter of this function passed on
                # (`conv_nd(dims, ...)`): the walker resolves it from this function's own call
                named = self.value_tree(arg.value)
                if named[0] == "const" and not (
                    len(named) == 4 and not self.holds_parameter(arg.value.value, arg.value)  # type: ignore[attr-defined]
                ):
                    tree = named  # (a parameter bound again here holds what this body made)
                elif named == ("unknown",) and (test := self.scopes[-1].tests.get(arg.value.value)) is not None:
                    # `use_gpu = args.use_gpu and torch.cuda.is_available()` passed on: the
                    # callee's `if use_gpu:` is that test (TEST_ARGUMENT)
                    tree = (TEST_ARGUMENT, test)
            elif isinstance(arg.value, (cst.Comparison, cst.BooleanOperation)) or (
                isinstance(arg.value, cst.UnaryOperation) and isinstance(arg.value.operator, cst.Not)
            ):
                tree = (TEST_ARGUMENT, self.cond_tree(arg.value))  # `f(use_gpu=args.gpu and ok)`
            if tree == ("unknown",) and self.u_no_grad_argument(arg.value):  # type: ignore[attr-defined]
                tree = NO_GRAD_ARGUMENT  # a buffer, a fresh or detached tensor
            elif tree == ("unknown",) and self._u_kind(arg.value) in ("str", "iter", "set") \
                    and not self._u_assumed:  # type: ignore[attr-defined]
                tree = TEXT_ARGUMENT
            elif tree == ("unknown",) and isinstance(arg.value, cst.Attribute) \
                    and isinstance(arg.value.value, cst.Name) and arg.value.value.value == "self" \
                    and self.current_class() is not None:  # type: ignore[attr-defined]
                # `Transforms(split=self.split)` in a method: what this class's constructor
                # calls stored there (Program.lookup)
                tree = self.value_tree(arg.value)
            if tree == ("unknown",) and type(arg.value) in (cst.List, cst.Tuple) and not any(
                type(e) is cst.StarredElement for e in arg.value.elements  # type: ignore[attr-defined]
            ):
                tree = ("sized", len(arg.value.elements))  # type: ignore[attr-defined]  # `[style_code]`: one element
            if tree == ("unknown",) and self.u_some_value(arg.value):  # type: ignore[attr-defined]
                tree = SOME_VALUE
            out.append((name, tree))
        if node.args and (self.facts.config_sources or _LOADERS & self.uses):  # type: ignore[attr-defined]
            # `instantiate(cfg.model)`: which node of the loaded configuration it is given
            # (where the module loads one; a `@hydra.main` further down counts too)
            keys = config_path(node.args[0].value)
            if keys:
                out.append((CONFIG, ("config", keys)))
        return tuple(out)

    def note_condition_local(self, names: list[str], value: cst.BaseExpression) -> None:
        """A function's local bound once, outside any branch, to a test of parameters,
        options or constants (``scheduled_batching = input_size_choices is not None``):
        a later ``if scheduled_batching:`` is that test; a function's or the module's name
        bound once so to an option (``seed = args.seed``) is that option in later tests.
        A name bound again is neither."""
        scope = self.scopes[-1]
        if scope.kind == "class":
            return
        # `True if mode == "train" else False` is the test (`False if ... else True`, its negation)
        value = _truth_of_test(value)
        testing = scope.kind == "function" and (isinstance(value, (cst.Comparison, cst.BooleanOperation)) or (
            isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Not)
        ))
        # `seed = args.seed` (`cfg["seed"]`): a later `if seed is not None:` tests the option
        copied = isinstance(value, cst.Attribute) or config_key(value) is not None
        # `option = 0` (a parameter too): a name a function binds only here, to a literal
        constant = scope.kind == "function" and isinstance(value, (cst.Integer, cst.Float, cst.SimpleString, cst.Name)) \
            and _literal(value) != UNKNOWN  # a Name: True, False, None
        for name in names:
            again = name in scope.tests or bool(self.conds)
            scope.tests[name] = None if again or not testing else self.cond_tree(value)
            if constant and not again and _bindings(scope).get(name) == 1:
                scope.aliases[name] = ("const", _literal(value))
                continue
            scope.aliases[name] = None if again or not copied else self.value_tree(value)

    def cond_tree(self, node: cst.BaseExpression) -> Any:
        if isinstance(node, cst.Name):
            tree = self.scopes[-1].tests.get(node.value)
            if tree is not None:
                return tree
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            return ("not", self.cond_tree(node.expression))
        if isinstance(node, cst.BooleanOperation):
            op = "and" if isinstance(node.operator, cst.And) else "or"
            return (op, self.cond_tree(node.left), self.cond_tree(node.right))
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
            comp = node.comparisons[0]
            left = self.value_tree(node.left)
            right = _literal(comp.comparator)
            if right == UNKNOWN and type(comp.comparator) is cst.Name:
                # `if EXP_MODE == MODE_Z_HIDDEN:`: a module constant (not a parameter's
                # default, which a caller may replace) compares as its value
                named = self.value_tree(comp.comparator)
                if named[0] == "const" and len(named) == 2:
                    right = named[1]
            if isinstance(comp.operator, (cst.Is, cst.IsNot)) and right is None:
                return ("isnone" if isinstance(comp.operator, cst.Is) else "notnone", left)
            if isinstance(comp.operator, (cst.Is, cst.IsNot)) and isinstance(right, bool):
                # `args.validate is False`: the very bool
                return ("cmp", left, "is" if isinstance(comp.operator, cst.Is) else "is not", right)
            ops = {
                cst.Equal: "==", cst.NotEqual: "!=", cst.LessThan: "<",
                cst.LessThanEqual: "<=", cst.GreaterThan: ">", cst.GreaterThanEqual: ">=",
            }
            for klass, op in ops.items():
                if isinstance(comp.operator, klass) and right != UNKNOWN:
                    return ("cmp", left, op, right)
            if isinstance(comp.operator, (cst.In, cst.NotIn)):
                # `args.task in ("train", "finetune")`, `"xcit" in args.arch`
                tree = _membership(self, node.left, comp.comparator)
                if tree is not None:
                    return tree if isinstance(comp.operator, cst.In) else ("not", tree)
            return ("unknown",)
        return ("truthy", self.value_tree(node))

    def value_tree(self, node: cst.BaseExpression) -> Any:
        if type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "len" \
                and len(node.args) == 1 and not node.args[0].star and not self.is_local("len"):  # type: ignore[attr-defined]
            return ("len", self.value_tree(node.args[0].value))  # `len(styles) < 2`
        if isinstance(node, cst.Name):
            value = _literal(node)
            if value != UNKNOWN:
                return ("const", value)
            for scope in reversed(self.scopes):
                if scope.aliases.get(node.value) is not None and scope.kind != "class":
                    return scope.aliases[node.value]
                if scope.kind == "function":
                    if node.value in scope.params:
                        # marked: a parameter's default holds only where callers leave it
                        return ("const", scope.params[node.value], "param", node.value)
                    if node.value in scope.locals:
                        return ("unknown",)
                    break
            if node.value in self.module_consts:
                return ("const", self.module_consts[node.value])
            return ("unknown",)
        if isinstance(node, cst.Attribute):
            cls = self.current_class()  # type: ignore[attr-defined]
            if cls is not None and isinstance(node.value, cst.Name) and node.value.value == "self":
                # `if self.augment:` in a method: what the constructor's calls pass for the
                # parameter `__init__` stores there (Program.lookup; an option of that name
                # where it stores none)
                return ("selfattr", self.facts.path, cls, node.attr.value)  # type: ignore[attr-defined]
            return ("attr", node.attr.value)
        key = config_key(node)  # cfg["seed"], cfg.get("seed")
        if key is not None:
            return ("attr", key)
        value = _literal(node)
        return ("const", value) if value != UNKNOWN else ("unknown",)


_ENV_READS = frozenset({"os.getenv", "os.environ.get"})
_CONVERSIONS = {"int": int, "float": float, "str": str}


def env_default(node: cst.BaseExpression, qualify: Callable[[cst.BaseExpression], Optional[str]]) -> Any:
    """The value an environment read takes on a default run, where the command a user
    types sets no variable: ``os.getenv("LOCAL_RANK", -1)``'s default (None without one),
    through ``int(...)``/``float(...)``/``str(...)`` (``RANK = int(os.getenv("RANK",
    -1))`` is -1: a launcher such as torchrun sets it). UNKNOWN for anything else."""
    convert = None
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in _CONVERSIONS \
            and len(node.args) == 1 and not node.args[0].star:
        convert = _CONVERSIONS[node.func.value]
        node = node.args[0].value
    if not isinstance(node, cst.Call) or qualify(node.func) not in _ENV_READS:
        return UNKNOWN
    args = node.args
    if any(a.star for a in args) or not 1 <= len(args) <= 2:
        return UNKNOWN
    default = _literal(args[1].value) if len(args) == 2 else None
    if default == UNKNOWN:
        return UNKNOWN
    if convert is None:
        return default
    try:
        return convert(default)
    except (TypeError, ValueError):
        return UNKNOWN


def _membership(facts: Any, left: cst.BaseExpression, right: cst.BaseExpression) -> Any:
    """A condition tree for ``left in right``: a value in a literal tuple, list or set
    (``("cmp", value, "in", (...))``), or a literal in a value (``"xcit" in args.arch``:
    ``("cmp", value, "has", "xcit")``); None when neither side is literal."""
    if isinstance(right, (cst.Tuple, cst.List, cst.Set)):
        values = tuple(_literal(e.value) for e in right.elements if not isinstance(e, cst.StarredElement))
        if len(values) == len(right.elements) and UNKNOWN not in values:
            return ("cmp", facts.value_tree(left), "in", values)
        return None
    needle = _literal(left)
    if needle != UNKNOWN and isinstance(needle, str):
        return ("cmp", facts.value_tree(right), "has", needle)
    return None


def _truth_of_test(value: cst.BaseExpression) -> cst.BaseExpression:
    """``True if T else False`` written out: the test ``T`` (``not T`` for ``False if T
    else True``); any other value as it is."""
    if type(value) is not cst.IfExp:
        return value
    body, orelse = value.body, value.orelse  # type: ignore[attr-defined]
    if type(body) is cst.Name and type(orelse) is cst.Name and {body.value, orelse.value} == {"True", "False"}:
        test = value.test  # type: ignore[attr-defined]
        if type(test) not in (cst.Comparison, cst.BooleanOperation, cst.UnaryOperation):
            return value
        return test if body.value == "True" else cst.UnaryOperation(cst.Not(), test)
    return value


def _bindings(scope: Any) -> dict[str, int]:
    """How many times the function of ``scope`` binds each name (assignments, augmented
    ones, loop and `with` targets, imports, nested definitions), nested functions left
    out; memoised on the scope."""
    found: Optional[dict[str, int]] = getattr(scope, "_bindings", None)
    if found is not None:
        return found
    from reprolint.analysis.cst_helpers import children, target_names

    found = {}
    stack: list[Any] = [scope.body] if scope.body is not None else []
    while stack:
        node = stack.pop()
        kind = type(node)
        targets: list[Any] = []
        if kind is cst.FunctionDef or kind is cst.ClassDef:
            found[node.name.value] = found.get(node.name.value, 0) + 1
            continue
        if kind is cst.Lambda:
            continue
        if kind is cst.Assign:
            targets = [t.target for t in node.targets]
        elif kind in (cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor):
            targets = [node.target]
        elif kind is cst.WithItem and node.asname is not None:
            targets = [node.asname.name]
        elif kind is cst.NamedExpr:
            targets = [node.target]
        elif kind in (cst.Import, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar):
            for alias in node.names:
                bound = alias.asname.name if alias.asname is not None else alias.name
                while type(bound) is cst.Attribute:  # `import a.b` binds `a`
                    bound = bound.value
                targets.append(bound)
        elif kind is cst.Global or kind is cst.Nonlocal:
            for item in node.names:
                found[item.name.value] = found.get(item.name.value, 0) + 2  # not the function's own
        for target in targets:
            for name in target_names(target):
                found[name.value] = found.get(name.value, 0) + 1
        stack.extend(children(node))
    scope._bindings = found
    return found
