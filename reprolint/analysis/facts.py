"""Per-module facts: one libcst pass collects imports, seeds, draws and project calls.

The facts are plain frozen data (no CST nodes), so they can be cached per file and
combined across files by :mod:`reprolint.analysis.program`.

Name resolution uses a module-wide import table instead of libcst's
``QualifiedNameProvider``: it gives the same answers for the import forms that matter
here (aliases, ``from x import y as z``, relative imports, star imports of known modules)
at a fraction of the cost. Approximations, documented for users in the rule docs:

* the import table is module-wide (an import inside a function is visible everywhere);
* a name assigned or taken as a parameter in the current function shadows an import;
* both branches of an ``if`` are recorded in order, with the branch condition attached;
* loop bodies are recorded once.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence, Union

import dataclasses

import libcst as cst

from reprolint.analysis.cst_helpers import CHILD_FIELDS, IS_NODE, child_fields, find_argument, is_node, literal
from reprolint.analysis.cst_helpers import simple_code
from reprolint.catalog.rng import ArgCondition, DrawApi, RngCatalog, rng_catalog
from reprolint.analysis.usage import Usage, UsageMixin
from reprolint.analysis.usage_events import CudaWork, TrainStep
from reprolint.analysis.calls import environments, keras, pandas, reseeding, spawn
from reprolint.analysis.values import UNKNOWN, OptionRef
from reprolint.model import Span

__all__ = [
    "Call",
    "Cond",
    "Draw",
    "FunctionFacts",
    "Guard",
    "Import",
    "LocalFinding",
    "ModuleFacts",
    "OptionRef",
    "Region",
    "Seed",
    "UNKNOWN",
    "Usage",
    "collect_facts",
]


@dataclass(frozen=True)
class Cond:
    """A branch condition on the way to an event.

    ``tree`` is a small tuple language the program model evaluates with the option
    defaults: ("const", v) ("attr", name) ("isnone", t) ("notnone", t) ("truthy", t)
    ("not", t) ("and", t...) ("or", t...) ("cmp", t, op, v) ("unknown",).
    ``polarity``: the event runs when the condition is true (False: in its ``else``).
    """

    tree: Any
    polarity: bool
    text: str  # the condition as written
    # where the condition is written (kept for seeding calls, whose RPL104 finding points
    # back at the guard); not part of equality
    span: Any = field(default=None, compare=False, hash=False)

EXTERNAL_ROOTS = frozenset(
    set(getattr(sys, "stdlib_module_names", ()))
    | {
        "torch", "numpy", "tensorflow", "keras", "jax", "jaxlib", "flax", "optax", "sklearn",
        "scipy", "pandas", "lightning", "pytorch_lightning", "lightning_fabric", "transformers",
        "accelerate", "datasets", "torchvision", "torchaudio", "timm", "matplotlib", "tqdm",
        "wandb", "hydra", "omegaconf", "click", "typer", "yaml", "PIL", "cv2", "tensorboard",
    }
)
_NEVER_PROJECT = frozenset(
    set(getattr(sys, "stdlib_module_names", ()))
    | {"torch", "numpy", "tensorflow", "keras", "jax", "jaxlib", "flax", "optax", "sklearn", "scipy", "pandas"}
)


_NO_GRAD = frozenset({"torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad", "torch.autograd.grad_mode.no_grad"})


@dataclass(frozen=True)
class Seed:
    """A call that seeds one or more libraries' global generators."""

    api: str
    libs: tuple[str, ...]
    span: Span
    text: str
    entropy: Optional[str]  # source of an entropy-valued seed argument, e.g. "`time.time()`"
    entropy_ref: Optional[str]  # `args.<name>` seed whose argparse default may be entropy
    no_seed: bool  # called without a seed, so it seeds from OS entropy
    conds: tuple[Cond, ...] = ()


@dataclass(frozen=True)
class Draw:
    """A draw from a library's global generator."""

    api: str
    library: str
    kind: str
    deferred: bool
    span: Span
    text: str
    conds: tuple[Cond, ...] = ()


@dataclass(frozen=True)
class Call:
    """A call that may target a project function or class (resolved per program)."""

    target: str  # "pkg.mod.func", ".rel.func" (leading dots = level) or ":local.name"
    span: Span
    text: str
    entropy: Optional[str]
    entropy_ref: Optional[str]
    conds: tuple[Cond, ...] = ()


@dataclass(frozen=True)
class Import:
    module: str  # dotted; leading dots for relative imports
    optional: bool = False  # `from pkg import name`: `pkg.name` may be a submodule or not


@dataclass(frozen=True)
class Guard:
    """Start or end of the ``if __name__ == "__main__":`` block."""

    begin: bool


@dataclass(frozen=True)
class Region:
    """Start or end of a ``with torch.no_grad():`` (or ``inference_mode``) block."""

    begin: bool


Event = Union[Seed, Draw, Call, Import, Guard, Region, Usage]  # Usage: RPL2xx-RPL4xx facts (usage_events.py)


@dataclass(frozen=True)
class LocalFinding:
    """A finding that does not depend on the program (RPL102, RPL401, RPL402): its rule
    code and the fields its rule renders the message from (``variant`` picks a wording)."""

    code: str
    span: Span
    data: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)


@dataclass
class FunctionFacts:
    qualname: str
    events: list[Event] = field(default_factory=list)
    no_grad: bool = False  # decorated with @torch.no_grad() / @torch.inference_mode()


@dataclass
class ModuleFacts:
    path: str
    events: list[Event] = field(default_factory=list)
    functions: dict[str, FunctionFacts] = field(default_factory=dict)
    classes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # name -> base targets
    has_main_guard: bool = False
    top_level_work: bool = False
    imported_modules: tuple[str, ...] = ()
    star_imports: tuple[str, ...] = ()  # `from <module> import *` (relative ones with their dots)
    findings: list[LocalFinding] = field(default_factory=list)
    arg_defaults: dict[str, Any] = field(default_factory=dict)  # argparse/click/fields
    arg_entropy: dict[str, str] = field(default_factory=dict)  # argparse defaults from entropy
    # option dest -> the flag a user passes (`--cuda`), for messages about non-default runs
    option_flags: dict[str, str] = field(default_factory=dict)
    uses: frozenset[str] = frozenset()  # library roots imported (torch, numpy, ...)
    # class qualname -> `self.<attr>` RNG instances its methods draw from (RPL403)
    class_rngs: dict[str, list[str]] = field(default_factory=dict)


_literal = literal  # the name the collector's code uses


call_argument = find_argument


def _has_star(call: cst.Call) -> bool:
    return any(a.star for a in call.args)


def attr_chain(node: cst.BaseExpression) -> Optional[list[str]]:
    parts: list[str] = []
    # type tests, not isinstance: see cst_helpers.CONCRETE (asked of most expressions)
    while type(node) is cst.Attribute:
        parts.append(node.attr.value)  # type: ignore[attr-defined]
        node = node.value  # type: ignore[attr-defined]
    if type(node) is cst.Name:
        parts.append(node.value)
        return parts[::-1]
    return None


_TRUE_WORDS = frozenset({"true", "yes", "y", "t", "1", "on"})
_FALSE_WORDS = frozenset({"false", "no", "n", "f", "0", "off"})


def _parsed_default(default: Any, type_arg: Optional[cst.Arg]) -> Any:
    """An option's default as the program sees it: argparse passes a string default
    through ``type=`` (``type=bool`` makes any non-empty string true; a ``str2bool``-style
    converter reads ``"False"`` as false, as the words it accepts say)."""
    if not isinstance(default, str) or type_arg is None:
        return default
    converter = type_arg.value
    name = converter.value if isinstance(converter, cst.Name) else None
    if name == "bool":
        return bool(default)
    if name in ("str", "int", "float"):
        return default
    word = default.strip().lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    return default


def _is_main_guard(test: cst.BaseExpression) -> bool:
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    target = test.comparisons[0]
    if not isinstance(target.operator, cst.Equal):
        return False
    sides = (test.left, target.comparator)
    names = [s for s in sides if isinstance(s, cst.Name) and s.value == "__name__"]
    strings = [s for s in sides if _literal(s) == "__main__"]
    return bool(names) and bool(strings)


@dataclass
class _Scope:
    kind: str  # "module" | "function" | "class"
    name: str  # qualname prefix for definitions inside
    events: list[Event]
    locals: set[str] = field(default_factory=set)
    params: dict[str, Any] = field(default_factory=dict)
    entropy_vars: dict[str, str] = field(default_factory=dict)
    class_name: Optional[str] = None
    dicts: dict[str, cst.BaseExpression] = field(default_factory=dict)  # name = {...} / dict(...)


class _Pending:
    """Stands in for a Span until positions are computed for the reported nodes."""

    __slots__ = ("node",)

    def __init__(self, node: cst.CSTNode) -> None:
        self.node = node


_child_fields = child_fields


class _Collector(UsageMixin):
    """One walk over the module collecting events; handlers are ``visit_<NodeType>``.

    A handler returning False has walked (or skipped) the node's children itself. The
    walk reads dataclass fields directly instead of libcst's visitor protocol, which
    rebuilds every node it visits and is several times slower.
    """

    _handlers: dict[type, object] = {}

    def __init__(
        self, module: cst.Module, path: str, catalog: RngCatalog, source: Optional[str] = None
    ) -> None:
        self.module = module
        # Entropy sources all have one of these words; without them, skip the search.
        text = source if source is not None else ""
        self.entropy_possible = source is None or any(
            word in text for word in ("time", "urandom", "getpid", "uuid", "secrets", "hash", "getrandom")
        )
        # A call's name is text of the source: without these words no loop holds a
        # `set_epoch`/`backward` call, and the loops need not be searched for one.
        self.loop_hooks_possible = source is None or "set_epoch" in text or "backward" in text
        # An entropy source is the builtin `hash` or a name of a module in the catalog
        # (`time.time`), reached through an import (which adds its root to `uses`) or
        # a star import: see entropy_of.
        self.hash_possible = source is None or "hash" in text
        self.entropy_roots = frozenset(api.split(".")[0] for api in catalog.entropy)
        self.pending_nodes: list[cst.CSTNode] = []
        self.cond_texts: dict[int, str] = {}
        self.catalog = catalog
        self.facts = ModuleFacts(path=path)
        self.aliases: dict[str, str] = {}
        # ids of calls inside `nn.Parameter(...)`: a torch draw there initialises weights.
        self.parameter_args: set[int] = set()
        # (scope, name) -> the value last assigned to a plain name (what `nn.Parameter(w)` holds)
        self.bound_values: dict[tuple[int, str], cst.BaseExpression] = {}
        self.in_text = 0  # inside an f-string field: a value formatted into text
        # NumPy / `random` draw calls in the module's top-level code (notebooks: see
        # reprolint.analysis.feeds)
        self.top_draws: set[int] = set()
        self.star_modules: list[str] = []
        self.star_imports: list[str] = []
        self.module_consts: dict[str, Any] = {}
        self.generator_vars: set[str] = set()  # names bound to torch.Generator(...)
        # `sub.set_defaults(func=train)`: option name -> the project functions a later
        # `args.func(args)` dispatches to (argparse subcommands)
        self.dispatch: dict[str, list[str]] = {}
        self.rng_vars: set[str] = set()  # names bound to RNG instances (not global draws)
        self.scopes: list[_Scope] = [_Scope("module", "", self.facts.events)]
        # (tree, polarity, test node) of the enclosing ifs; text made on demand
        self.conds: list[tuple[Any, bool, cst.BaseExpression]] = []
        self.imported: list[str] = []
        self.uses: set[str] = set()
        self.env_calls = environments.EnvironmentCalls()
        self.spawn_calls = spawn.SpawnCalls()
        self.constructor_sites: dict[int, reseeding.Site] = {}

    # ------------------------------------------------------------------ helpers
    @property
    def scope(self) -> _Scope:
        return self.scopes[-1]

    def walk(self, node: cst.CSTNode) -> None:
        kind = type(node)
        handlers = _Collector._handlers
        if kind not in handlers:
            handlers[kind] = getattr(_Collector, f"visit_{kind.__name__}", None)
        handler = handlers[kind]
        if handler is not None and handler(self, node) is False:  # type: ignore[operator]
            return
        # the memos of child_fields and is_node read inline: this runs for every node
        fields = CHILD_FIELDS.get(kind)
        if fields is None:
            fields = _child_fields(kind)
        known = IS_NODE.get
        for name in fields:
            value = getattr(node, name)
            value_type = type(value)
            if value_type is tuple or value_type is list:
                for item in value:
                    found = known(type(item))
                    if found or (found is None and is_node(item)):
                        self.walk(item)
            else:
                found = known(value_type)
                if found or (found is None and is_node(value)):
                    self.walk(value)

    def span(self, node: cst.CSTNode) -> Span:
        """A placeholder resolved to the node's real span once the walk is done."""
        self.pending_nodes.append(node)
        return _Pending(node)  # type: ignore[return-value]

    def text(self, node: cst.CSTNode) -> str:
        plain = simple_code(node)  # most of what is asked: names, conditions, calls
        return plain if plain is not None else self.module.code_for_node(node)

    def emit(self, event: Event) -> None:
        self.scope.events.append(event)

    def is_local(self, name: str) -> bool:
        for scope in reversed(self.scopes):
            if scope.kind == "function":
                return name in scope.locals or name in scope.params
        return False

    def qualify(self, node: cst.BaseExpression) -> Optional[str]:
        """The qualified name an expression refers to, through the import table."""
        chain = attr_chain(node)
        if chain is None:
            return None
        root = chain[0]
        if self.is_local(root):
            return None
        if root in self.aliases:
            return ".".join([self.aliases[root], *chain[1:]])
        if len(chain) == 1:
            for module in self.star_modules:
                candidate = f"{module}.{root}"
                if (
                    candidate in self.catalog.seeders
                    or candidate in self.catalog.instances
                    or self.catalog.draw(candidate) is not None
                ):
                    return candidate
        return None

    def call_target(self, func: cst.BaseExpression) -> Optional[str]:
        """Where a call may go inside the project (resolved later against project files)."""
        chain = attr_chain(func)
        if chain is None:
            return None
        root = chain[0]
        if root == "self" and len(chain) == 2 and self.current_class() is not None:
            return f":{self.current_class()}.{chain[1]}"
        if self.is_local(root):
            return None
        if root in self.aliases:
            target = ".".join([self.aliases[root], *chain[1:]])
            first = target.lstrip(".").split(".")[0]
            # A project package shadows a library of the same name (as ``sys.path[0]``
            # does): a call into ``timm``/``datasets``/... is resolved against the project
            # files and dropped there when none holds it; the standard library and the
            # frameworks analysed by qualified name are never project code.
            if not target.startswith(".") and first in _NEVER_PROJECT:
                return None
            return target
        return ":" + ".".join(chain)

    def current_class(self) -> Optional[str]:
        for scope in reversed(self.scopes):
            if scope.class_name is not None:
                return scope.class_name
        return None

    def entropy_of(self, node: Optional[cst.CSTNode], depth: int = 0) -> Optional[str]:
        """Describe the entropy source inside an expression (time, urandom, hash of str...)."""
        if node is None or depth > 12 or not self.entropy_possible:
            return None
        if depth == 0 and not (
            self.hash_possible or self.star_modules or not self.entropy_roots.isdisjoint(self.uses)
        ):
            # No call here can qualify to an entropy source, and so no name holds one
            # (entropy_vars only keeps what an earlier answer found).
            return None
        kind = type(node)  # type tests, not isinstance: see cst_helpers.CONCRETE
        if kind is cst.Call:
            qn = self.qualify(node.func)
            if qn is None and isinstance(node.func, cst.Name) and node.func.value == "hash":
                if not self.is_local("hash") and "hash" not in self.aliases:
                    first = node.args[0].value if node.args else None
                    if not isinstance(first, cst.Integer):
                        return f"`{self.text(node)}`"
            if qn is not None and qn in self.catalog.entropy:
                return f"`{self.text(node)}`"
            if qn is not None:
                # `datetime.now().timestamp()`: the entropy is in the receiver
                pass
        if kind is cst.Name:
            for scope in reversed(self.scopes):
                if node.value in scope.entropy_vars:
                    return scope.entropy_vars[node.value]
                if scope.kind == "function":
                    break
            module_scope = self.scopes[0]
            if node.value in module_scope.entropy_vars:
                return module_scope.entropy_vars[node.value]
            return None
        for name in _child_fields(type(node)):
            value = getattr(node, name)
            children = value if type(value) is tuple or type(value) is list else (value,)
            for child in children:
                if is_node(child):
                    found = self.entropy_of(child, depth + 1)
                    if found:
                        return found
        return None

    def attr_ref(self, node: Optional[cst.BaseExpression]) -> Optional[str]:
        """`args.seed` / `cfg.train.seed` -> "seed" (looked up in argparse defaults later)."""
        if isinstance(node, cst.Call) and node.args:  # int(args.seed)
            return self.attr_ref(node.args[0].value)
        if isinstance(node, cst.Attribute):
            return node.attr.value
        return None

    # ------------------------------------------------------------------ conditions
    def current_conds(self) -> tuple[Cond, ...]:
        """The enclosing branch conditions that defaults can decide, with their text."""
        out = []
        for tree, polarity, test in self.conds:
            if tree == ("unknown",):
                continue  # can never be shown false by defaults: not worth its text
            key = id(test)
            if key not in self.cond_texts:
                self.cond_texts[key] = self.text(test)
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
                self.cond_texts[key] = self.text(test)
            out.append(Cond(tree, polarity, self.cond_texts[key], self.span(test)))
        return tuple(out)

    def cond_tree(self, node: cst.BaseExpression) -> Any:
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            return ("not", self.cond_tree(node.expression))
        if isinstance(node, cst.BooleanOperation):
            op = "and" if isinstance(node.operator, cst.And) else "or"
            return (op, self.cond_tree(node.left), self.cond_tree(node.right))
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
            comp = node.comparisons[0]
            left = self.value_tree(node.left)
            right = _literal(comp.comparator)
            if isinstance(comp.operator, (cst.Is, cst.IsNot)) and right is None:
                return ("isnone" if isinstance(comp.operator, cst.Is) else "notnone", left)
            ops = {
                cst.Equal: "==", cst.NotEqual: "!=", cst.LessThan: "<",
                cst.LessThanEqual: "<=", cst.GreaterThan: ">", cst.GreaterThanEqual: ">=",
            }
            for klass, op in ops.items():
                if isinstance(comp.operator, klass) and right != UNKNOWN:
                    return ("cmp", left, op, right)
            return ("unknown",)
        return ("truthy", self.value_tree(node))

    def value_tree(self, node: cst.BaseExpression) -> Any:
        if isinstance(node, cst.Name):
            value = _literal(node)
            if value != UNKNOWN:
                return ("const", value)
            for scope in reversed(self.scopes):
                if scope.kind == "function":
                    if node.value in scope.params:
                        return ("const", scope.params[node.value])
                    if node.value in scope.locals:
                        return ("unknown",)
                    break
            if node.value in self.module_consts:
                return ("const", self.module_consts[node.value])
            return ("unknown",)
        if isinstance(node, cst.Attribute):
            return ("attr", node.attr.value)
        value = _literal(node)
        return ("const", value) if value != UNKNOWN else ("unknown",)

    # ------------------------------------------------------------------ imports
    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.constructor_sites.update(reseeding.constructor_sites(node.body))

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.constructor_sites.update(reseeding.constructor_sites(node.body))

    def visit_Import(self, node: cst.Import) -> bool:
        for alias in node.names:
            dotted = self.text(alias.name)
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.aliases[alias.asname.name.value] = dotted
            else:
                root = dotted.split(".")[0]
                self.aliases[root] = root
            self.uses.add(dotted.split(".")[0])
            self.emit(Import(dotted))
            self.imported.append(dotted)
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        level = len(node.relative)
        base = self.text(node.module) if node.module is not None else ""
        prefix = "." * level + base
        if base:
            self.uses.add(base.split(".")[0])
        if level == 0 or base:
            self.emit(Import(prefix))
            self.imported.append(prefix)
        if isinstance(node.names, cst.ImportStar):
            if level == 0:
                self.star_modules.append(base)
            self.star_imports.append(prefix)
            return False
        for alias in node.names:
            name = self.text(alias.name)
            full = f"{prefix}.{name}" if base else f"{prefix}{name}"
            bound = name
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                bound = alias.asname.name.value
            self.aliases[bound] = full
            self.emit(Import(full, optional=True))
            self.imported.append(full)
        return False

    # ------------------------------------------------------------------ definitions
    def _visit_in(self, nodes: Sequence[cst.CSTNode]) -> None:
        for child in nodes:
            self.walk(child)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        # Decorators and defaults run in the enclosing scope, at definition time.
        self._visit_in(node.decorators)
        params: dict[str, Any] = {}
        all_params = [
            *node.params.posonly_params, *node.params.params, *node.params.kwonly_params,
        ]
        for param in all_params:
            if param.default is not None:
                self.walk(param.default)
            params[param.name.value] = _literal(param.default) if param.default else UNKNOWN
        for star in (node.params.star_arg, node.params.star_kwarg):
            if isinstance(star, cst.Param):
                params[star.name.value] = UNKNOWN
        # click: @click.option("--seed", default=None) gives the parameter its default.
        for decorator in node.decorators:
            dec = decorator.decorator
            if isinstance(dec, cst.Call) and (self.qualify(dec.func) or "").endswith(".option"):
                dest, default, _ = self._option_default(dec)
                if dest is not None:
                    params[dest] = default
                    self.facts.arg_defaults.setdefault(dest, default)
        pandas.note_parameters(self, node.params)
        outer = self.scope
        qualname = f"{outer.name}{node.name.value}"
        fn = FunctionFacts(qualname, no_grad=any(self._no_grad(d.decorator) for d in node.decorators))
        self.facts.functions.setdefault(qualname, fn)
        # Nested functions are also reachable by their simple name (approximation).
        self.facts.functions.setdefault(node.name.value, fn)
        outer.locals.add(node.name.value)
        saved_conds, self.conds = self.conds, []
        self.scopes.append(
            _Scope("function", f"{qualname}.", fn.events, params=params,
                   class_name=outer.class_name if outer.kind == "class" else None)
        )
        self.walk(node.body)
        self.scopes.pop()
        self.conds = saved_conds
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self._visit_in(node.decorators)
        bases = []
        for arg in node.bases:
            self.walk(arg.value)
            target = self.call_target(arg.value)
            qn = self.qualify(arg.value)
            bases.append(qn or target or "")
        outer = self.scope
        qualname = f"{outer.name}{node.name.value}"
        self.facts.classes[qualname] = tuple(bases)
        outer.locals.add(node.name.value)
        # A class body runs at definition time, in the enclosing scope's order.
        self.scopes.append(
            _Scope("class", f"{qualname}.", outer.events, class_name=qualname)
        )
        self.walk(node.body)
        self.scopes.pop()
        return False

    # ------------------------------------------------------------------ control flow
    def visit_If(self, node: cst.If) -> bool:
        self.walk(node.test)
        if len(self.scopes) == 1 and not self.conds and _is_main_guard(node.test):
            self.facts.has_main_guard = True
            self.emit(Guard(True))
            self.walk(node.body)
            self.emit(Guard(False))
            return False
        tree = self.cond_tree(node.test)
        self.conds.append((tree, True, node.test))
        self.walk(node.body)
        self.conds.pop()
        if node.orelse is not None:
            self.conds.append((tree, False, node.test))
            self.walk(node.orelse)
            self.conds.pop()
        return False

    def _note_top_level_work(self) -> None:
        if len(self.scopes) == 1:
            self.facts.top_level_work = True

    def visit_For(self, node: cst.For) -> None:
        self._note_top_level_work()
        self._bind_targets(node.target)
        self.usage_for(node)

    def visit_While(self, node: cst.While) -> None:
        self._note_top_level_work()
        self.usage_loop(node)

    def visit_With(self, node: cst.With) -> Optional[bool]:
        self._note_top_level_work()
        if not any(self._no_grad(item.item) for item in node.items):
            return None
        self._visit_in(node.items)
        self.emit(Region(True))
        self.walk(node.body)
        self.emit(Region(False))
        return False

    def _no_grad(self, node: cst.BaseExpression) -> bool:
        """``torch.no_grad()``, ``torch.inference_mode()`` (as a context or decorator)."""
        func = node.func if isinstance(node, cst.Call) else node
        return self.qualify(func) in _NO_GRAD  # type: ignore[arg-type]

    def visit_FormattedStringExpression(self, node: cst.FormattedStringExpression) -> bool:
        """An f-string field: what it computes becomes text (a unique name, a port in a
        URL, a log line), so a draw there decides no data (see :meth:`_maybe_draw`)."""
        self.in_text += 1
        try:
            self.walk(node.expression)
        finally:
            self.in_text -= 1
        return False

    def visit_Expr(self, node: cst.Expr) -> None:
        if isinstance(node.value, (cst.Call, cst.Await)):
            self._note_top_level_work()

    # ------------------------------------------------------------------ assignments
    def _bind_targets(self, target: cst.BaseExpression) -> list[str]:
        names: list[str] = []
        if isinstance(target, cst.Name):
            names.append(target.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                names.extend(self._bind_targets(element.value))
        if self.scope.kind == "function":
            self.scope.locals.update(names)
        return names

    def _note_assignment(self, targets: list[cst.BaseExpression], value: cst.BaseExpression) -> None:
        names: list[str] = []
        for target in targets:
            names.extend(self._bind_targets(target))
            if isinstance(target, cst.Attribute):
                names.append(target.attr.value)
        entropy = self.entropy_of(value)
        is_dict = isinstance(value, cst.Dict) or (
            isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "dict"
        )
        keras.note_assignment(self, names, value)
        pandas.note_assignment(self, targets, value)
        for name in names:
            if is_dict:
                self.scope.dicts[name] = value
            else:
                self.scope.dicts.pop(name, None)
            if entropy:
                self.scope.entropy_vars[name] = entropy
            else:
                self.scope.entropy_vars.pop(name, None)
        if isinstance(value, cst.Call):
            qn = self.qualify(value.func) or ""
            if qn in ("torch.Generator", "torch._C.Generator"):
                self.generator_vars.update(names)
            if qn in self.catalog.instances or qn == "numpy.random.Generator":
                self.rng_vars.update(names)
        if len(self.scopes) == 1:
            literal = _literal(value)
            for name in names:
                if literal != UNKNOWN:
                    self.module_consts[name] = literal
                else:
                    self.module_consts.pop(name, None)
        elif self.scope.kind == "class":
            literal = _literal(value)
            if literal == UNKNOWN and isinstance(value, cst.Call) and self.qualify(value.func) in (
                "dataclasses.field", "pydantic.Field", "attr.ib", "attrs.field",
            ):
                # `cuda: bool = field(default=True, metadata=...)` (HfArgumentParser reads it)
                given = call_argument(value, "default", None)
                literal = _literal(given.value) if given is not None else UNKNOWN
            for name in names:
                if literal != UNKNOWN:
                    self.facts.arg_defaults.setdefault(name, literal)

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            self.bound_values[(id(self.scope), node.targets[0].target.value)] = node.value
            if len(self.scopes) == 1 and isinstance(node.value, cst.Attribute):
                # `tf1 = tf.compat.v1` (or `tf = tf.compat.v1`) at module level: the name
                # is that module from here on, like `import tensorflow.compat.v1 as tf1`
                module = self.qualify(node.value)
                if module in _MODULE_ALIASES:
                    self.aliases[node.targets[0].target.value] = module
        self.usage_assign([t.target for t in node.targets], node.value)
        self._note_assignment([t.target for t in node.targets], node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self.usage_assign([node.target], node.value)
            self._note_assignment([node.target], node.value)
        elif self.scope.kind == "class" and isinstance(node.target, cst.Name):
            # `seed: Optional[int]` in a dataclass without default: unknown
            pass

    # ------------------------------------------------------------------ calls
    def _option_flag(self, call: cst.Call) -> Optional[str]:
        """The long flag of ``add_argument('-c', '--cuda', ...)`` as written (``--cuda``),
        followed by `` ...`` when it takes a value (no ``store_true``-like action)."""
        names = [_literal(a.value) for a in call.args if a.keyword is None]
        flags = [n for n in names if isinstance(n, str) and n.startswith("-")]
        longs = [n for n in flags if n.startswith("--")]
        flag = (longs or flags or [None])[0]
        if flag is None:
            return None
        action = call_argument(call, "action", None)
        bare = action is not None and (
            _literal(action.value) in ("store_true", "store_false", "store_const", "count")
            or self.text(action.value).endswith("BooleanOptionalAction")
        )
        return flag if bare else f"{flag} ..."

    def _option_default(self, call: cst.Call) -> tuple[Optional[str], Any, Optional[str]]:
        """(dest, default, entropy) of `add_argument(...)` / `click.option(...)`."""
        flags = [a for a in call.args if a.keyword is None and isinstance(a.value, cst.SimpleString)]
        dest: Optional[str] = None
        for arg in flags:
            value = _literal(arg.value)
            if isinstance(value, str):
                if value.startswith("--"):
                    dest = value[2:].replace("-", "_")
                    break
                if dest is None and not value.startswith("-"):
                    dest = value.replace("-", "_")
                elif dest is None:
                    dest = value.lstrip("-").replace("-", "_")
        dest_arg = call_argument(call, "dest", None)
        if dest_arg is not None and isinstance(_literal(dest_arg.value), str):
            dest = _literal(dest_arg.value)
        default_arg = call_argument(call, "default", None)
        action = call_argument(call, "action", None)
        action_value = _literal(action.value) if action is not None else None
        if default_arg is not None:
            default = _parsed_default(_literal(default_arg.value), call_argument(call, "type", None))
        elif action_value == "store_true" or call_argument(call, "is_flag", None) is not None:
            default = False
        elif action_value == "store_false":
            default = True
        else:
            default = None
        entropy = self.entropy_of(default_arg.value) if default_arg is not None else None
        return dest, default, entropy

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        qn = self.qualify(func)
        catalog = self.catalog
        self.usage_call(node, qn)
        environments.note_call(self.env_calls, self.uses, node)
        spawn.note_call(self.spawn_calls, self, node, qn)
        if isinstance(func, cst.Attribute) and func.attr.value == "add_argument":
            dest, default, entropy = self._option_default(node)
            if dest is not None:
                self.facts.arg_defaults.setdefault(dest, default)
                flag = self._option_flag(node)
                if flag is not None:
                    self.facts.option_flags.setdefault(dest, flag)
                if entropy:
                    self.facts.arg_entropy[dest] = entropy
                self._device_option(node, dest, default)
        elif isinstance(func, cst.Attribute) and func.attr.value == "set_defaults":
            # `parser.set_defaults(cuda=True)`: parser-level defaults override the
            # arguments' own, whichever comes first
            for arg in node.args:
                if arg.keyword is None:
                    continue
                value = _literal(arg.value)
                if value == UNKNOWN and isinstance(arg.value, (cst.Name, cst.Attribute)):
                    # a subcommand's function: `args.func(args)` runs it
                    target = self.call_target(arg.value)
                    if target is not None:
                        self.dispatch.setdefault(arg.keyword.value, []).append(target)
                    continue
                self.facts.arg_defaults[arg.keyword.value] = value
        self._device_map(node)
        if qn is not None and qn in catalog.seeders:
            self._seed(node, qn)
            return
        if qn is not None and qn in catalog.instances:
            self._instance(node, qn)
            return
        held = _held_state(node, qn)
        if isinstance(held, cst.Name):  # `w = torch.randn(...)`, then `nn.Parameter(w)`
            held = self.bound_values.get((id(self.scope), held.value))
        if held is not None:
            self.parameter_args.update(id(n) for n in _calls_in(held))
        # `models.__dict__[args.arch]()`, `getattr(models, name)()`: a member chosen at run
        # time draws like every member of a module the catalog lists by prefix
        # (`torchvision.models.*`); dunder members (`models.__dict__.keys()`) never do.
        member = qn if qn is not None else self.dynamic_member(func)
        draw = catalog.draw(member) if member is not None and not dunder_member(member) else None
        if draw is not None:
            self._maybe_draw(node, draw, self.text(func))
            return
        if isinstance(func, cst.Attribute):
            method = func.attr.value
            receiver = func.value
            if method == "seed" and not node.args and self._is_generator(receiver):
                self.facts.findings.append(
                    LocalFinding("RPL102", self.span(node), {"call": self.text(func), "variant": "reseed"})
                )
                return
            if qn is None and method in catalog.method_draws and not self._is_rng_instance(receiver):
                for method_draw in catalog.method_draws[method]:
                    if method_draw.requires in self.uses:
                        self._maybe_draw(node, method_draw, self.text(func))
                        return
        if isinstance(func, cst.Attribute) and func.attr.value in self.dispatch:
            # `args.func(args)`: each subcommand's function may run here
            for dispatched in self.dispatch[func.attr.value]:
                self.emit(Call(dispatched, self.span(node), self.text(func), None, None, self.current_conds()))
            return
        target = self.call_target(func)
        if target is not None:
            entropy = None
            ref = None
            for arg in node.args:
                entropy = entropy or self.entropy_of(arg.value)
                ref = ref or self.attr_ref(arg.value)
            chain = attr_chain(func)
            text = ".".join(chain) if chain else self.text(func)
            self.emit(Call(target, self.span(node), text, entropy, ref, self.current_conds()))

    def dynamic_member(self, func: cst.BaseExpression) -> Optional[str]:
        """The qualified name of a module member picked by a run-time name:
        ``mod.__dict__[key]``, ``vars(mod)[key]``, ``getattr(mod, key)`` give ``mod.key``
        for a literal key, else ``mod.*``."""
        owner: Optional[cst.BaseExpression] = None
        key: Optional[cst.BaseExpression] = None
        if isinstance(func, cst.Subscript) and len(func.slice) == 1 and isinstance(func.slice[0].slice, cst.Index):
            key, held = func.slice[0].slice.value, func.value
            if isinstance(held, cst.Attribute) and held.attr.value == "__dict__":
                owner = held.value
            elif self._builtin_call(held, "vars") and len(held.args) == 1:  # type: ignore[arg-type]
                owner = held.args[0].value  # type: ignore[attr-defined]
        elif self._builtin_call(func, "getattr") and len(func.args) in (2, 3):  # type: ignore[attr-defined]
            owner, key = func.args[0].value, func.args[1].value  # type: ignore[attr-defined]
        module = self.qualify(owner) if owner is not None else None
        if module is None or key is None:
            return None
        name = _literal(key)
        return f"{module}.{name}" if isinstance(name, str) and name.isidentifier() else f"{module}.*"

    def _builtin_call(self, node: cst.BaseExpression, name: str) -> bool:
        return (
            isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == name
            and not self.is_local(name) and name not in self.aliases
        )

    def dict_value(self, name: str) -> Optional[cst.BaseExpression]:
        """The dict literal (``{...}`` or ``dict(...)``) a name was last bound to, here or at
        module level."""
        for scope in (self.scope, self.scopes[0]):
            if name in scope.dicts:
                return scope.dicts[name]
        return None

    def _device_option(self, node: cst.Call, dest: str, default: Any) -> None:
        """``add_argument('--device', default='cuda')``: the program runs on CUDA by default
        (what ``torch.device(args.device)`` then selects). Recorded at the option, which runs
        wherever the parser is built."""
        if "torch" not in self.uses or not isinstance(default, str):
            return
        if not ("device" in dest or "gpu" in dest or "cuda" in dest):
            return
        if default == "cuda" or default.startswith("cuda:"):
            self._u_emit(CudaWork, f"`--{dest.replace('_', '-')}` default {default!r}", node)
            return
        choices = call_argument(node, "choices", None)
        listed = _literal(choices.value) if choices is not None else None
        if default == "cpu" and (
            choices is None
            or isinstance(listed, (list, tuple)) and any(isinstance(c, str) and c.startswith("cuda") for c in listed)
        ):
            # `--device cpu` by default: CUDA when the user passes `--device cuda`
            asked = Cond(("cmp", ("attr", dest), "==", "cuda"), True, f"args.{dest} == 'cuda'")
            self.emit(CudaWork(
                "the device option", self.span(node), self.text(node.func),
                self.current_conds() + (asked,),
            ))

    def _device_map(self, node: cst.Call) -> None:
        """``from_pretrained(..., device_map="auto")``: accelerate places the weights on the
        GPUs it finds (any map but ``"cpu"``)."""
        if "torch" not in self.uses and "transformers" not in self.uses:
            return
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == "device_map":
                value = _literal(arg.value)
                if value is None or value == "cpu" or (isinstance(arg.value, cst.Dict) and all(
                    isinstance(e, cst.DictElement) and _literal(e.value) == "cpu" for e in arg.value.elements
                )):
                    return
                self._u_emit(CudaWork, f"`device_map={self.text(arg.value)[:40]}`", node)
                return

    def _is_generator(self, receiver: cst.BaseExpression) -> bool:
        if isinstance(receiver, cst.Call):
            return self.qualify(receiver.func) in ("torch.Generator", "torch._C.Generator")
        chain = attr_chain(receiver)
        return chain is not None and chain[-1] in self.generator_vars

    def _is_rng_instance(self, receiver: cst.BaseExpression) -> bool:
        if isinstance(receiver, cst.Call):
            qn = self.qualify(receiver.func) or ""
            return qn in self.catalog.instances or qn == "numpy.random.Generator"
        chain = attr_chain(receiver)
        if chain is None:
            return False
        if chain[0] in self.aliases:  # a module attribute, not an instance
            return True
        return chain[-1] in self.rng_vars or chain[-1] in self.generator_vars

    def _seed(self, node: cst.Call, qn: str) -> None:
        seeder = self.catalog.seeders[qn]
        arg = None
        if seeder.seed_arg is not None or seeder.keyword is not None:
            arg = call_argument(node, seeder.keyword, seeder.seed_arg)
        no_seed = (
            seeder.entropy_without_seed
            and not _has_star(node)
            and (arg is None or _literal(arg.value) is None)
        )
        value = arg.value if arg is not None else None
        self.emit(
            Seed(
                api=qn,
                libs=seeder.seeds,
                span=self.span(node),
                text=self.text(node.func),
                entropy=self.entropy_of(value),
                entropy_ref=self.attr_ref(value),
                no_seed=no_seed,
                conds=self.located_conds(),
            )
        )

    def _instance(self, node: cst.Call, qn: str) -> None:
        instance = self.catalog.instances[qn]
        text = self.text(node.func)
        arg = None
        if instance.seed_arg is not None or instance.keyword is not None:
            arg = call_argument(node, instance.keyword, instance.seed_arg)
        if arg is None and _has_star(node):
            return
        site = self.constructor_sites.get(id(node))
        if arg is None and site is not None and reseeding.seeded_before_use(site, lambda e: not self.entropy_of(e)):
            return  # `rs = RandomState()` then `rs.seed(1)`: nothing is drawn before the seed
        if arg is not None:
            entropy = self.entropy_of(arg.value)
            if entropy:
                self.facts.findings.append(
                    LocalFinding("RPL102", self.span(node), {"call": text, "source": entropy, "variant": "entropy"})
                )
            elif _literal(arg.value) is None and not instance.seed_required:
                self.facts.findings.append(
                    LocalFinding("RPL102", self.span(node), {"call": text, "variant": "none"})
                )
            elif not instance.seed_required and isinstance(ref := self._u_op_value(arg.value), OptionRef):
                # `default_rng(args.seed)`: seeded from OS entropy when the option's default
                # is None; the rule asks each program that runs this module for the default
                data = {"call": text, "value": self.text(arg.value), "option": ref.name, "variant": "option"}
                self.facts.findings.append(LocalFinding("RPL102", self.span(node), data))
            return
        if instance.seed_required:
            return
        self.facts.findings.append(LocalFinding("RPL102", self.span(node), {"call": text}))

    def _maybe_draw(self, node: cst.Call, draw: DrawApi, text: str) -> None:
        if self.in_text:
            return  # `f"tcp://localhost:{random.randrange(49152, 65535)}"`: a name, not data
        if (draw.unless or draw.when) and any(a.star == "**" for a in node.args):
            # keyword arguments unknown (`**kwargs`): cannot tell whether `generator=`,
            # `seed=`, `shuffle=True`... is given. A draw without conditions still draws
            # (`def linear(*args, **kwargs): return nn.Linear(*args, **kwargs)`).
            return
        for cond in draw.unless:
            arg = call_argument(node, cond.keyword, cond.position)
            if (cond.default if arg is None else _literal(arg.value)) is not None:
                return
        for cond in draw.when:
            if not _condition_holds(node, cond, self):
                return
        library: Optional[str] = draw.library
        if draw.input is not None:
            library = _INPUT_CHECKS[draw.input](self, node)
            if library is None:
                return  # e.g. `fit(dataset)`: the input brings its own order
        if len(self.scopes) == 1 and library in ("numpy", "random"):
            self.top_draws.add(id(node))
        self.emit(
            Draw(
                api=draw.api if not draw.method else f".{draw.api}",
                library=library,
                kind="init" if draw.library == "torch" and id(node) in self.parameter_args else draw.kind,
                deferred=draw.deferred,
                span=self.span(node),
                text=text,
                conds=self.current_conds(),
            )
        )


# Modules a program commonly renames by assignment (`tf1 = tf.compat.v1`).
_MODULE_ALIASES = frozenset({"tensorflow.compat.v1", "tensorflow.compat.v2"})


# What decides a draw whose catalog entry names an `input`: the library it draws from, or None.
_INPUT_CHECKS = {**keras.INPUT_CHECKS, "pandas-frame": pandas.frame_sample_draws}


def _drop_idle_draws(module: cst.Module, collector: "_Collector") -> None:
    """A notebook's top-level NumPy/`random` draws that feed no training, no file and
    nothing the flow cannot follow are no draws (reprolint.analysis.feeds)."""
    from reprolint.analysis.feeds import draws_feeding_nothing

    functions = collector.facts.functions

    def trains(name: str) -> bool:
        return any(
            isinstance(e, TrainStep)
            for qualname, fn in functions.items() if qualname == name or qualname.startswith(name + ".")
            for e in fn.events
        )

    idle = draws_feeding_nothing(module, collector.top_draws, collector.qualify, trains)
    if idle:
        collector.facts.events = [
            e for e in collector.facts.events
            if not (isinstance(e, Draw) and isinstance(e.span, _Pending) and id(e.span.node) in idle)
        ]


def dunder_member(qualname: str) -> bool:
    """``torchvision.models.__dict__.keys``: a module's dunder attributes build no model."""
    return any(part.startswith("__") and part.endswith("__") for part in qualname.split(".")[1:])


_PARAMETER_CLASSES = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})


def _held_state(node: cst.Call, qn: Optional[str]) -> Optional[cst.BaseExpression]:
    """The value a module keeps as state that a checkpoint load restores: the tensor of
    ``nn.Parameter(x)``, or of ``self.register_buffer(name, x)`` (unless
    ``persistent=False``: such a buffer is not in the state dict)."""
    if qn in _PARAMETER_CLASSES:
        return node.args[0].value if node.args else None
    func = node.func
    if isinstance(func, cst.Attribute) and func.attr.value == "register_buffer" and len(node.args) >= 2:
        persistent = next((a for a in node.args if a.keyword is not None and a.keyword.value == "persistent"), None)
        if persistent is None or _literal(persistent.value) is not False:
            return node.args[1].value
    return None


def _calls_in(expr: cst.BaseExpression) -> list[cst.Call]:
    """The calls of an expression, through arithmetic (`scale * torch.randn(n)`) and
    method chains (`torch.randn(n).to(memory_format=...)`)."""
    if isinstance(expr, cst.Call):
        func = expr.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, (cst.Call, cst.BinaryOperation)):
            return [expr, *_calls_in(func.value)]
        return [expr]
    if isinstance(expr, cst.BinaryOperation):
        return _calls_in(expr.left) + _calls_in(expr.right)
    if isinstance(expr, cst.UnaryOperation):
        return _calls_in(expr.expression)
    return []


def _condition_holds(node: cst.Call, cond: ArgCondition, collector: Any = None) -> bool:
    arg = call_argument(node, cond.keyword, cond.position)
    if arg is None:
        value = cond.default
    elif cond.value == "keras-initializer" and collector is not None:
        value = keras.initializer_value(collector, arg.value)
    else:
        value = _literal(arg.value)
    if value == UNKNOWN:
        return True  # not a literal: it may well hold (e.g. shuffle=is_train)
    if cond.excluded is not None and value in cond.excluded:
        return False
    if cond.values is None:
        return arg is not None or cond.excluded is not None
    return value in cond.values


def parse_module(source: str) -> cst.Module:
    return cst.parse_module(source)


def collect_facts(
    module: cst.Module, path: str, catalog: Optional[RngCatalog] = None,
    source: Optional[str] = None,
) -> ModuleFacts:
    """Run the single fact-collecting pass over a parsed module (``source``: its text)."""
    collector = _Collector(module, path, catalog or rng_catalog(), source)
    collector.walk(module)
    collector.usage_finish()
    if collector.top_draws and path.endswith(".ipynb"):
        _drop_idle_draws(module, collector)
    facts = collector.facts
    seeds = any(isinstance(e, Seed) for e in facts.events) or any(
        isinstance(e, Seed) for fn in facts.functions.values() for e in fn.events
    )
    for call, data in environments.findings(collector.env_calls, seeds):
        facts.findings.append(LocalFinding("RPL102", collector.span(call), data))
    for call, data in spawn.findings(collector.spawn_calls, facts):
        facts.findings.append(LocalFinding("RPL101", collector.span(call), data))
    for call, code, data in spawn.flag_findings(collector.spawn_calls, facts):
        facts.findings.append(LocalFinding(code, collector.span(call), data))
    for call, shared, data in spawn.shared_model_sites(collector.spawn_calls, module):
        data["share_span"] = collector.span(shared)  # resolved below
        facts.findings.append(LocalFinding("RPL405", collector.span(call), data))
    # Imported here, not at the top: positions subclasses a libcst class at import time,
    # and importing the fact types must not import libcst (a warm cached run never
    # parses; see reprolint/_lazy.py).
    from reprolint.analysis.positions import node_spans

    spans = node_spans(module, collector.pending_nodes, source)

    def resolve(item: Any) -> Any:
        pending = getattr(item, "span", None)
        if (
            isinstance(item, Draw) and isinstance(pending, _Pending) and item.library == "torch"
            and id(pending.node) in collector.parameter_args
        ):
            # drawn into a name before `nn.Parameter(name)` made it a weight
            item = dataclasses.replace(item, kind="init")
        if isinstance(pending, _Pending):
            item = dataclasses.replace(item, span=spans[id(pending.node)])
        if isinstance(item, Seed) and any(isinstance(c.span, _Pending) for c in item.conds):
            item = dataclasses.replace(item, conds=tuple(
                dataclasses.replace(c, span=spans[id(c.span.node)]) if isinstance(c.span, _Pending) else c
                for c in item.conds
            ))
        return item

    facts.events = [resolve(e) for e in facts.events]
    for fn in {id(f): f for f in facts.functions.values()}.values():
        fn.events = [resolve(e) for e in fn.events]
    facts.findings = [resolve(f) for f in facts.findings]
    for finding in facts.findings:
        pending = finding.data.pop("seed_span", None) if finding.data.get("variant") == "spawn" else None
        if isinstance(pending, _Pending):  # the parent's seed, for the message
            finding.data["seed_line"] = spans[id(pending.node)].start_line
        flag = finding.data.pop("flag_span", None)
        if isinstance(flag, _Pending):  # the parent's determinism flag (RPL301/RPL302 at a spawn)
            finding.data["flag_line"] = spans[id(flag.node)].start_line
        shared = finding.data.pop("share_span", None)
        if isinstance(shared, _Pending):  # RPL405's related location: the share_memory() call
            span = spans[id(shared.node)]
            finding.data["share_at"] = [span.start_line, span.start_col, span.end_line, span.end_col]
    facts.imported_modules = tuple(dict.fromkeys(collector.imported))
    facts.star_imports = tuple(dict.fromkeys(collector.star_imports))
    facts.uses = frozenset(collector.uses)
    if any(isinstance(e, (Seed, Draw)) for e in facts.events):
        facts.top_level_work = True
    return facts
