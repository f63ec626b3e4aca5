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

The fact records live in :mod:`reprolint.analysis.module_facts` (imported here, so
``from reprolint.analysis.facts import Seed`` keeps working); the collector's families
are mixins: :class:`~reprolint.analysis.condition_facts.ConditionFacts` (branch
conditions), :class:`~reprolint.analysis.option_facts.OptionFacts` (command-line options
and device options), :class:`~reprolint.analysis.rng_facts.RngFacts` (seeds, draws,
generator instances) and :class:`~reprolint.analysis.usage.UsageMixin` (usage events).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence, Union

import dataclasses

import libcst as cst

from reprolint.analysis.cst_helpers import CHILD_FIELDS, IS_NODE, child_fields, find_argument, is_node, literal
from reprolint.analysis.cst_helpers import attr_chain, descendants, node_functions, simple_code, string_literal, target_names, text_parts
from reprolint.catalog.rng import RngCatalog, rng_catalog
from reprolint.analysis.usage import Usage, UsageMixin
from reprolint.analysis.usage_events import EnvironmentDraw, GraphScope
from reprolint.analysis import config_files, dispatch, instance_calls
from reprolint.analysis.calls import devices, environments, keras, pandas, reseeding, spawn
from reprolint.analysis.values import UNKNOWN, OptionRef
from reprolint.model import Span
from reprolint.analysis.module_facts import (
    PARAMETER_CALL, Call, Cond, Draw, Event, FunctionFacts, Guard, Import, InstanceCall, LocalFinding, ModuleFacts, Region, Seed,
    mentioned_names,
    method_mentions,
)
from reprolint.analysis.module_names import module_bound_names
from reprolint.analysis.self_tests import shape_only_block, shape_only_module
from reprolint.analysis.condition_facts import ConditionFacts, env_default, is_main_guard
from reprolint.analysis.option_facts import ABSL_FLAG_MODULES, CONFIG_LIBRARIES, OptionFacts
from reprolint.analysis.rng_facts import GRAPH_CLASSES, RngFacts, held_state
from reprolint.analysis.self_attrs import note_self_attr
from reprolint.analysis.loop_bodies import names_read_outside

__all__ = [
    "Call", "Cond", "Draw", "FunctionFacts", "Guard", "Import", "LocalFinding", "ModuleFacts", "OptionRef",
    "Region", "Seed", "UNKNOWN", "Usage", "collect_facts",
]


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


# Libraries a module reaches by their own name through a project module's star import:
# `from utils import *` after `import torch` in utils.py binds `torch` here too (a star
# import without `__all__` copies every public name, modules included); the name `torch`
# bound to the torch module is what `import torch` makes.
_STAR_REACHED = frozenset({"random", "numpy", "torch", "tensorflow", "jax", "keras", "os", "glob"})
# Star imports that are not project modules: their public names include other bindings
# of those names (`from pylab import *` binds `random` to `numpy.random`).
_LIBRARY_STARS = _NEVER_PROJECT | {"pylab", "matplotlib", "sympy", "tflearn", "mxnet", "chainer"}

_literal = literal  # the name the collector's code uses


call_argument = find_argument


# Calls whose argument only decides how long to wait (`time.sleep(random())`).
_WAITS = frozenset({"time.sleep", "asyncio.sleep"})


@dataclass
class _Scope:
    kind: str  # "module" | "function" | "class"
    name: str  # qualname prefix for definitions inside
    events: list[Event]
    locals: set[str] = field(default_factory=set)
    params: dict[str, Any] = field(default_factory=dict)
    entropy_vars: dict[str, str] = field(default_factory=dict)
    # name (or attribute name) -> the global-RNG draw whose value it holds
    # (`opt.manualSeed = random.randint(1, 10000)`): a seed taken from it is as random as
    # that generator's state
    drawn_seeds: dict[str, cst.Call] = field(default_factory=dict)
    class_name: Optional[str] = None
    dicts: dict[str, cst.BaseExpression] = field(default_factory=dict)  # name = {...} / dict(...)
    tests: dict[str, Any] = field(default_factory=dict)  # local -> the test it holds, or None
    aliases: dict[str, Any] = field(default_factory=dict)  # local -> the option it copies, or None
    # parameter -> the value of the assignment that first binds it again (`x =
    # self.conv(x)`): inside that value the name still holds what the call passed
    rebinds: dict[str, cst.BaseExpression] = field(default_factory=dict)
    body: Optional[cst.CSTNode] = None  # a function's body
    looped: Optional[set[int]] = None  # ids of the nodes inside a loop of the body (made on demand)
    loop_names: set[str] = field(default_factory=set)  # names a `for` of the body binds
    read_names: Optional[frozenset[str]] = None  # names the body reads (made on demand)
    outside_names: Optional[frozenset[str]] = None  # names it declares global or nonlocal (made on demand)


class _Pending:
    """Stands in for a Span until positions are computed for the reported nodes."""

    __slots__ = ("node",)

    def __init__(self, node: cst.CSTNode) -> None:
        self.node = node


_child_fields = child_fields


# Calls that read a function's locals by name: a body that names one reads any of them.
_READ_ANY = frozenset({"locals", "vars", "eval", "exec"})


def _declared_outside(scope: _Scope) -> frozenset[str]:
    """The names a function's body declares ``global`` or ``nonlocal`` (memoised on the
    scope)."""
    if scope.outside_names is None:
        found = set()
        for node in descendants(scope.body):  # type: ignore[arg-type]
            if type(node) in (cst.Global, cst.Nonlocal):
                found.update(item.name.value for item in node.names)  # type: ignore[attr-defined]
        scope.outside_names = frozenset(found)
    return scope.outside_names


def _all_params(parameters: cst.Parameters) -> list[cst.Param]:
    """Every parameter of a ``def`` or ``lambda``: positional, keyword-only, ``*args`` and
    ``**kwargs``."""
    stars = [s for s in (parameters.star_arg, parameters.star_kwarg) if isinstance(s, cst.Param)]
    return [*parameters.posonly_params, *parameters.params, *parameters.kwonly_params, *stars]


class _Collector(ConditionFacts, OptionFacts, RngFacts, UsageMixin):
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
        # without these words in the source no loop holds a `set_epoch`/`backward` call
        self.loop_hooks_possible = source is None or "set_epoch" in text or "backward" in text
        # `torch.set_default_device`/`set_default_tensor_type`: factories may make CUDA tensors
        self.default_device_possible = source is None or "set_default_" in text
        # what can overwrite a layer's drawn parameters (analysis/overwritten.py)
        self.overwrite_possible = source is None or any(w in text for w in ("copy_", "load_state_dict", ".weight ="))
        # a model run for nothing (analysis/example_inputs.py) is fed a framework's tensor,
        # which a module that names no deep-learning framework makes none of
        self.idle_model_possible = source is None or any(w in text for w in ("torch", "tensorflow", "keras", "jax"))
        # An entropy source is the builtin `hash` or a catalog module's name (`time.time`),
        # reached through an import (adding its root to `uses`) or a star import: entropy_of.
        self.hash_possible = source is None or "hash" in text
        self.entropy_roots = catalog.entropy_roots
        self.pending_nodes: list[cst.CSTNode] = []
        self.cond_texts: dict[int, str] = {}
        self.top_defs: set[str] = set()  # names of the module's top-level defs and classes
        self.catalog = catalog
        self.facts = ModuleFacts(path=path)
        self.aliases: dict[str, str] = {}
        # ids of calls inside `nn.Parameter(...)`: a torch draw there initialises weights.
        self.parameter_args: set[int] = set()
        # (scope, name) -> the value last assigned to a plain name (what `nn.Parameter(w)` holds)
        self.bound_values: dict[tuple[int, str], cst.BaseExpression] = {}
        # (scope, name) -> every value assigned to it, also by unpacking (`p, lower, upper =
        # torch.lu_unpack(...)`): what a weight is computed from (_computed_from)
        self.assigned_values: dict[tuple[int, str], list[cst.BaseExpression]] = {}
        self.getattr_names: set[str] = set()  # literal names `getattr(x, "name")` reads
        self.stored_attr_nodes: set[int] = set()  # attributes assigned or deleted, not read
        self.default_of: Optional[tuple[str, str, int]] = None  # walking a parameter's default
        # attribute names read on a catalogued library's module (`tf.train`, `np.random`),
        # and those read on anything else (`sfm.train`): see collect_facts
        self.library_attrs: set[str] = set()
        self.other_attrs: set[str] = set()
        self.library_roots = catalog.roots
        # calls in the value of an assignment to a local no statement reads (_note_unread_value)
        self.unread_values: set[int] = set()
        self.dropped_values: set[int] = set()  # calls whose value their statement drops
        self.in_try = 0  # inside the body of a `try` statement
        self.in_text = 0  # inside an f-string field (a value formatted into text) or a wait's duration
        self.lambda_args: set[int] = set()  # ids of lambdas given to a call: they run around it
        self.lambdas = 0  # lambdas stored for later, numbered in source order (their functions' names)
        self.cpu_pinned = False  # inside a `with tf.device("/cpu:0"):` block (no other device's inside it)
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
        # (scope id, name) or (class, ".attr") -> the project class an instance held there
        # was built from (analysis/instance_calls.py)
        self.instances: dict[tuple[Any, str], str] = {}
        self.scopes: list[_Scope] = [_Scope("module", "", self.facts.events)]
        # (tree, polarity, test node) of the enclosing ifs; text made on demand
        self.conds: list[tuple[Any, bool, cst.BaseExpression]] = []
        self.opened_files: dict[str, cst.BaseExpression] = {}  # `with open(p) as f`: f -> open(p)
        self.graph_vars: set[str] = set()  # names bound to `tf.Graph()`
        self.imported: list[str] = []
        self.uses: set[str] = set()
        self.config_objects: set[str] = set()
        self.env_calls = environments.EnvironmentCalls()
        self.spawn_calls = spawn.SpawnCalls()
        self.constructor_sites: dict[int, reseeding.Site] = {}
        self.reseeded_holders: Optional[tuple[set[reseeding.Holder], dict[reseeding.Holder, list[cst.Call]]]] = None

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
        if root in _STAR_REACHED and len(chain) > 1 and root not in self.top_defs and any(
            star.startswith(".") or star.split(".")[0] not in _LIBRARY_STARS for star in self.star_imports
        ):
            return ".".join(chain)  # `torch.manual_seed(...)` after `from utils import *`
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
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call) \
                and isinstance(func.value.func, cst.Name) and func.value.func.value == "super":
            return self._super_target(func.attr.value)
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

    def _super_target(self, method: str) -> Optional[str]:
        """``super().__init__(...)`` (or ``super(Cls, self)``) in a method of a class: the
        method of its first base, where that base is a project class (a library base's
        method is not project code)."""
        cls = self.current_class()
        bases = self.facts.classes.get(cls, ()) if cls is not None else ()
        if not bases or not bases[0] or bases[0] in (":object", "object"):
            return None
        base = bases[0]
        if not base.startswith((":", ".")) and base.split(".")[0] in _NEVER_PROJECT:
            return None
        return f"{base}.{method}"

    def _looped(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` is inside a loop of the function running (``for blk in
        self.blocks: x = blk(x)`` binds ``x`` again on each turn)."""
        scope = self.scope
        if scope.looped is None:
            scope.looped = {
                id(inner) for loop in descendants(scope.body) if type(loop) in (cst.For, cst.While)
                for inner in descendants(loop)
            } if scope.body is not None else set()
        return id(node) in scope.looped

    def holds_parameter(self, name: str, node: cst.CSTNode) -> bool:
        """Whether ``name`` at ``node`` still holds what the call of the enclosing
        function passed for its parameter: not bound again before (``x = self.conv(x)``:
        inside that first assignment's value it still does)."""
        scope = self.scope
        if scope.kind != "function" or name not in scope.params:
            return False
        if name not in scope.locals:
            return True
        value = scope.rebinds.get(name)
        return value is not None and (value is node or any(inner is node for inner in descendants(value)))

    def current_class(self) -> Optional[str]:
        for scope in reversed(self.scopes):
            if scope.class_name is not None:
                return scope.class_name
        return None

    # ------------------------------------------------------------------ imports
    def visit_Module(self, node: cst.Module) -> bool:
        super().visit_Module(node)
        self.top_defs = {s.name.value for s in node.body if isinstance(s, (cst.FunctionDef, cst.ClassDef))}
        self.constructor_sites.update(reseeding.constructor_sites(node.body))
        self.walk_block(node.body)  # (a block: `if args.dry_run: sys.exit()` ends what follows)
        if not self.facts.has_main_guard:
            # `test()` at the top level of a model file, calling its own shape check
            self.facts.main_self_test = shape_only_module(node)
        return False

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> bool:
        self.constructor_sites.update(reseeding.constructor_sites(node.body))
        self.walk_block(node.body)
        return False

    def visit_Try(self, node: cst.Try) -> bool:
        # an import in a `try` body may fail on purpose (`except ImportError:`)
        self.in_try += 1
        self.walk(node.body)
        self.in_try -= 1
        for part in (*node.handlers, node.orelse, node.finalbody):
            if part is not None:
                self.walk(part)
        return False

    visit_TryStar = visit_Try

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
            taken = () if isinstance(node.names, cst.ImportStar) or self.in_try else tuple(
                self.text(alias.name) for alias in node.names)
            self.emit(Import(prefix, names=taken))
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
            # a top-level `def`/`class` of the same name rebinds it when the module runs
            # (`from eval_knn import extract_features`, then `def extract_features`)
            if self.scope is not self.scopes[0] or bound not in self.top_defs:
                self.aliases[bound] = full
                if self.scope is self.scopes[0]:
                    self.facts.from_imports[bound] = full
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
        dispatch.note_registered(self, node)  # `@register_model`
        dispatch.note_command_decorator(self, node)  # `@cli.command()`
        for decorator in node.decorators:
            source = config_files.hydra_source(decorator, self.qualify)
            if source is not None:
                self.facts.config_sources.append(source)
        params: dict[str, Any] = {}
        places = [p.name.value for p in (*node.params.posonly_params, *node.params.params)]
        for param in _all_params(node.params):
            if param.default is not None:
                name = param.name.value
                # (the function, the parameter, its place or -1: RPL102 asks whether every
                # call passes it, so the default never serves)
                method = 1 if places[:1] in (["self"], ["cls"]) else 0  # `obj.walk(a)`: `a` binds the second
                self.default_of = (node.name.value, name, places.index(name) - method if name in places else -1)
                try:
                    self.walk(param.default)
                finally:
                    self.default_of = None
            params[param.name.value] = _literal(param.default) if param.default else UNKNOWN
        # click: @click.option("--seed", default=None) gives the parameter its default.
        for decorator in node.decorators:
            dec = decorator.decorator
            if isinstance(dec, cst.Call) and (self.qualify(dec.func) or "").endswith(".option"):
                dest, default, _ = self.option_default(dec)
                if dest is not None:
                    params[dest] = default
                    self.facts.arg_defaults.setdefault(dest, default)
        self.note_hub_entry(node.name.value, params)  # `def yolov5s(pretrained=True)` of a hubconf.py
        outer = self.scope
        qualname = f"{outer.name}{node.name.value}"
        # a function defined inside a `@torch.no_grad()` one runs under it: it exists only
        # while its parent runs (a closure returned for later is the rare exception)
        parent = self.facts.functions.get(outer.name[:-1]) if outer.kind == "function" else None
        no_grad = any(devices.no_grad_context(d.decorator, self.qualify) for d in node.decorators) or bool(parent and parent.no_grad)
        positional = tuple(p.name.value for p in (*node.params.posonly_params, *node.params.params))
        registers = any(_registers(d.decorator) for d in node.decorators)
        fn = FunctionFacts(qualname, no_grad=no_grad, positional=positional, decorated=bool(node.decorators),
                           registers=registers)
        self.facts.functions.setdefault(qualname, fn)
        # Nested functions are also reachable by their simple name (approximation).
        self.facts.functions.setdefault(node.name.value, fn)
        outer.locals.add(node.name.value)
        saved_conds, self.conds = self.conds, []
        self.scopes.append(
            _Scope("function", f"{qualname}.", fn.events, params=params,
                   class_name=outer.class_name if outer.kind == "class" else None, body=node.body)
        )
        self.usage_parameters(node.params)
        self.walk(node.body)
        dispatch.note_instantiator(self, node, fn)  # `def instantiate_from_config(config):`
        self.scopes.pop()
        self.conds = saved_conds
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        """A lambda given to a call runs around that call (``sorted(key=...)``, ``map``,
        ``model.apply``): its body is walked where it stands. One stored for later (a dict
        of layer factories ``OPS = {"conv": lambda C: nn.Conv2d(C, C, 3)}``, an attribute)
        runs only when something calls it: its body is a function of its own, which no
        call the analysis sees names (run as a function passed on: its draws count where
        the program runs it, not at the definition)."""
        if id(node) in self.lambda_args or self.in_text:
            return True
        params: dict[str, Any] = {}
        for param in _all_params(node.params):
            if param.default is not None:
                self.walk(param.default)  # defaults are evaluated where the lambda is written
            params[param.name.value] = UNKNOWN  # whoever calls it passes what it likes
        outer = self.scope
        self.lambdas += 1
        qualname = f"{outer.name}<lambda{self.lambdas}>"
        parent = self.facts.functions.get(outer.name[:-1]) if outer.kind == "function" else None
        fn = FunctionFacts(qualname, no_grad=bool(parent and parent.no_grad))
        self.facts.functions.setdefault(qualname, fn)
        saved_conds, self.conds = self.conds, []
        self.scopes.append(
            _Scope("function", f"{qualname}.", fn.events, params=params,
                   class_name=outer.class_name if outer.kind == "class" else None, body=node.body)
        )
        self.walk(node.body)
        self.scopes.pop()
        self.conds = saved_conds
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self._visit_in(node.decorators)
        dispatch.note_registered(self, node)
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
        self.u_plain_tensors(qualname, node)  # type: ignore[attr-defined]
        self.walk(node.body)
        self.scopes.pop()
        return False

    # ------------------------------------------------------------------ control flow
    def visit_If(self, node: cst.If) -> bool:
        self.u_truth_test(node.test)
        self.walk(node.test)
        if len(self.scopes) == 1 and not self.conds and is_main_guard(node.test):
            self.facts.has_main_guard = True
            self.facts.main_self_test = node in self.module.body and shape_only_block(self.module, node)
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
        names = self._bind_targets(node.target)
        if self.scope.kind == "function":
            self.scope.loop_names.update(names)
        self.usage_for(node)

    def visit_While(self, node: cst.While) -> None:
        self._note_top_level_work()
        self.u_truth_test(node.test)
        self.usage_loop(node)

    def visit_With(self, node: cst.With) -> Optional[bool]:
        self._note_top_level_work()
        self.usage_with(node)
        for item in node.items:
            if isinstance(item.asname, cst.AsName) and isinstance(item.asname.name, cst.Name):
                self.opened_files[item.asname.name.value] = item.item
                if self._u_listing_root(item.item) is not None:
                    # `with os.scandir(path) as entries:` holds the listing like
                    # `entries = os.scandir(path)`: judged where `entries` is used
                    self.usage_assign([item.asname.name], item.item)
        graph = next((item.item for item in node.items if self._new_graph(item.item)), None)
        if graph is not None:
            # TF 1.x: the block builds ops in a new graph, whose graph-level seed is unset
            self._visit_in(node.items)
            self._u_emit(GraphScope, "tensorflow", graph, begin=True)
            self.walk(node.body)
            self._u_emit(GraphScope, "tensorflow", graph, begin=False)
            return False
        no_grad = any(devices.no_grad_context(item.item, self.qualify) for item in node.items)
        device = next((d for item in node.items if (d := devices.tf_device(item.item, self.qualify))), None)
        if not no_grad and device is None:
            return None
        self._visit_in(node.items)
        if no_grad:
            self.emit(Region(True))
        pinned = self.cpu_pinned
        if device is not None:
            self.emit(Region(True, device))
            self.cpu_pinned = device == "cpu"  # a GPU tower inside a CPU block is on the GPU
        self.walk(node.body)
        if device is not None:
            self.cpu_pinned = pinned
            self.emit(Region(False, device))
        if no_grad:
            self.emit(Region(False))
        return False

    def visit_FormattedStringExpression(self, node: cst.FormattedStringExpression) -> bool:
        """An f-string field: what it computes becomes text (a unique name, a port in a
        URL, a log line), so a draw there decides no data (see :meth:`maybe_draw`)."""
        self._walk_as_text([node.expression])
        return False

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> Optional[bool]:
        """``"run-%d" % random.randint(0, 100)``: the right side becomes text, as an
        f-string's fields do (``"{}".format(...)``: visit_Call)."""
        parts = text_parts(node) if type(node.operator) is cst.Modulo else None
        if parts is None:
            return None
        self.walk(node.left)
        self._walk_as_text(parts)
        return False

    def _walk_as_text(self, nodes: Sequence[cst.CSTNode]) -> None:
        """Walk what becomes text (or a wait's duration): a draw there decides no data."""
        self.in_text += 1
        try:
            for part in nodes:
                self.walk(part)
        finally:
            self.in_text -= 1

    def visit_Expr(self, node: cst.Expr) -> None:
        if isinstance(node.value, (cst.Call, cst.Await)):
            self._note_top_level_work()
        if type(node.value) is cst.Call:
            # a call whose value the statement drops: what the value would draw later (a
            # `tf.data` dataset's `shuffle`, iterated; a transform, applied) never draws
            # (`rng.shuffle(docs)` on a `random.Random` a caller passes is an in-place
            # shuffle of its own, not `Dataset.shuffle`, whose new dataset is dropped)
            self.dropped_values.add(id(node.value))

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
        bound: list[str] = []
        for target in targets:
            bound.extend(self._bind_targets(target))
        attrs = [t.attr.value for t in targets if isinstance(t, cst.Attribute)]
        names = bound + attrs  # what a value is held in: `x`, or `<obj>.x` (".x" below)
        entropy = self.entropy_of(value)
        is_dict = isinstance(value, cst.Dict) or (
            isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "dict"
        )
        keras.note_assignment(self, names, value)
        if "torch" in self.uses:
            instance_calls.note_binding(self, targets, value)  # `model = Net().to(device)`
        self.note_condition_local(bound, value)  # `scheduled = sizes is not None`
        pandas.note_assignment(self, targets, value)
        if CONFIG_LIBRARIES & self.uses:
            self.note_config_default(targets, value)  # `_C.SEED = -1` of a yacs config
        drawn = self._global_draw_in(value)
        for name, key in zip(names, bound + ["." + a for a in attrs]):
            if drawn is not None:
                self.scope.drawn_seeds[key] = drawn
            else:
                self.scope.drawn_seeds.pop(key, None)
            if is_dict:
                self.scope.dicts[name] = value
            else:
                self.scope.dicts.pop(name, None)
            dispatch.note_binding(self, name, value, is_dict)
            if entropy:
                self.scope.entropy_vars[key] = entropy
            else:
                self.scope.entropy_vars.pop(key, None)
        if isinstance(value, cst.Call):
            qn = self.qualify(value.func) or ""
            if qn in ("torch.Generator", "torch._C.Generator"):
                self.generator_vars.update(names)
            if qn in GRAPH_CLASSES:
                self.graph_vars.update(names)
            if qn in self.catalog.instances or qn == "numpy.random.Generator":
                self.rng_vars.update(names)
        if len(self.scopes) == 1:
            literal = _literal(value)
            if literal == UNKNOWN:
                literal = env_default(value, self.qualify)
            if literal == UNKNOWN and type(value) is cst.Name and value.value in self.module_consts:
                literal = self.module_consts[value.value]  # `EXP_MODE = MODE_ZH`: that constant's value
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

    def _computed_from(self, expr: cst.BaseExpression) -> list[cst.Call]:
        """The calls whose results ``expr`` is computed from: those in it (in arguments
        too: ``torch.qr(torch.randn(n, n))[0]``), and those of the values assigned in this
        scope to the names it reads, four assignments deep."""
        found: list[cst.Call] = []
        seen: set[str] = set()
        todo = [(expr, 0)]
        while todo:
            current, depth = todo.pop()
            for node in descendants(current):
                if isinstance(node, cst.Call):
                    found.append(node)
                elif isinstance(node, cst.Name) and depth < 4 and node.value not in seen:
                    seen.add(node.value)
                    todo.extend((v, depth + 1) for v in self.assigned_values.get((id(self.scope), node.value), ()))
        return found

    def visit_Assign(self, node: cst.Assign) -> None:
        self._note_unread_value(node)
        for target in node.targets:
            names = [target.target] if isinstance(target.target, cst.Name) else (
                [e.value for e in target.target.elements if isinstance(e.value, cst.Name)]
                if isinstance(target.target, (cst.Tuple, cst.List)) else []
            )
            for name in names:
                self.assigned_values.setdefault((id(self.scope), name.value), []).append(node.value)  # type: ignore[union-attr]
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            self.bound_values[(id(self.scope), node.targets[0].target.value)] = node.value
            if len(self.scopes) == 1 and isinstance(node.value, cst.Attribute):
                # `tf1 = tf.compat.v1` (or `tf = tf.compat.v1`, `flags = tf.app.flags`) at
                # module level: the name is that module from here on, like an import alias
                module = self.qualify(node.value)
                if module in _MODULE_ALIASES:
                    self.aliases[node.targets[0].target.value] = module
        scope = self.scope
        if scope.kind == "function":
            for target in node.targets:
                for name in target_names(target.target):
                    if name.value in scope.params and name.value not in scope.locals and not self._looped(node):
                        scope.rebinds[name.value] = node.value
        self.usage_assign([t.target for t in node.targets], node.value)
        self._note_assignment([t.target for t in node.targets], node.value)
        self._note_attr_targets([t.target for t in node.targets], node.value)
        self._note_attr_constant(node)

    def _note_unread_value(self, node: cst.Assign) -> None:
        """``transform_train = transforms.Compose([transforms.RandomCrop(32), ...])`` in a
        function that never reads ``transform_train``: the calls of the value that draw
        later (when the transform is applied, the loader iterated) never do
        (``unread_values``). A name the function declares global or nonlocal is read
        elsewhere."""
        scope = self.scope
        if scope.kind != "function" or scope.body is None or len(node.targets) != 1:
            return
        target = node.targets[0].target
        if type(target) is not cst.Name:
            return
        if scope.read_names is None:
            # (not `model.eval` nor `f(transform=...)`, and not the whole targets of stores)
            scope.read_names = frozenset(names_read_outside(scope.body, None, stores=False))
        if target.value in scope.read_names or scope.read_names & _READ_ANY:
            return
        if target.value not in _declared_outside(scope):  # (walked only for a name never read)
            self.unread_values.update(id(n) for n in descendants(node.value) if type(n) is cst.Call)

    def _note_attr_constant(self, node: Union[cst.Assign, cst.AnnAssign]) -> None:
        """``opt.serial_batches = True  # no shuffle`` written once, unconditionally, at
        the module's top level (or its main block's), after the options are parsed: an
        evaluation script fixing an option for itself (ModuleFacts.attr_constants; any
        other assignment of the attribute in the module makes it unknown)."""
        targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
        attrs = [t for t in targets if isinstance(t, cst.Attribute)]
        if not attrs:
            return
        top = self._top_level_assigns()
        value = _literal(node.value)
        for target in attrs:
            name = target.attr.value
            known = self.facts.attr_constants
            fixed = id(node) in top and isinstance(target.value, cst.Name) and value is not UNKNOWN and name not in known
            known[name] = value if fixed else UNKNOWN

    def _top_level_assigns(self) -> set[int]:
        """The assignments written directly in the module's body or its main block's."""
        found = getattr(self, "_top_assigns", None)
        if found is None:
            found = set()
            for stmt in self.module.body:
                lines = [stmt]
                if isinstance(stmt, cst.If) and is_main_guard(stmt.test) and isinstance(stmt.body, cst.IndentedBlock):
                    lines = list(stmt.body.body)
                for line in lines:
                    if isinstance(line, cst.SimpleStatementLine):
                        found.update(id(small) for small in line.body if isinstance(small, cst.Assign))
            self._top_assigns = found
        return found

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        super().visit_AugAssign(node)
        self._note_attr_targets([node.target])

    def visit_Del(self, node: cst.Del) -> None:
        # `del model.avgpool`: the attribute is dropped, not read (ModuleFacts.read_attrs)
        targets = [e.value for e in node.target.elements] if isinstance(node.target, (cst.Tuple, cst.List)) else [node.target]
        for element in targets:
            if isinstance(element, cst.Attribute):
                self.stored_attr_nodes.add(id(element))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        super().visit_Attribute(node)
        base = node.value
        dotted = self.aliases.get(base.value) if type(base) is cst.Name and not self.is_local(base.value) else None
        if dotted is not None and dotted.split(".")[0] in self.library_roots:
            self.library_attrs.add(node.attr.value)
        else:
            self.other_attrs.add(node.attr.value)
        if id(node) not in self.stored_attr_nodes:
            cls = self.current_class() if type(node.value) is cst.Name and node.value.value == "self" else None
            self.facts.read_attrs.add(f"{cls}.{node.attr.value}" if cls else node.attr.value)

    def _note_attr_targets(
        self, targets: list[cst.BaseAssignTargetExpression], value: Optional[cst.BaseExpression] = None,
    ) -> None:
        for target in targets:
            if isinstance(target, cst.Attribute):
                self.facts.assigned_attrs.add(target.attr.value)
                if value is not None:  # (`opt.x += 1` reads it too)
                    self.stored_attr_nodes.add(id(target))
                if value is None:  # `opt.x += 1`: no constant
                    self.facts.attr_constants[target.attr.value] = UNKNOWN
                note_self_attr(self, target, value)
            elif isinstance(target, cst.Subscript):
                key = config_files.config_key(target)
                if key is not None:
                    self.facts.assigned_keys.add(key)
            elif isinstance(target, (cst.Tuple, cst.List)):
                self._note_attr_targets([e.value for e in target.elements])  # type: ignore[misc]

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self.usage_assign([node.target], node.value)
            self._note_assignment([node.target], node.value)
            self._note_attr_targets([node.target], node.value)
            self._note_attr_constant(node)  # (never one of the top-level `Assign`s: unknown)
        elif self.scope.kind == "class" and isinstance(node.target, cst.Name):
            # `seed: Optional[int]` in a dataclass without default: unknown
            pass

    # ------------------------------------------------------------------ calls
    def _note_call_through_value(self, func: cst.BaseExpression) -> None:
        """A call of a function taken out of a table or a list (``for op, lo, hi in ops:
        img = op(img, v)``, ``OPS[name](img)``, ``op = OPS[name]; op(img)``): which
        function runs is data, so the functions stored there run where this one does
        (ModuleFacts.value_callers)."""
        scope = self.scope
        if scope.kind != "function":
            return
        through = isinstance(func, cst.Subscript)
        if isinstance(func, cst.Name) and func.value not in scope.params:
            through = func.value in scope.loop_names or isinstance(
                self.bound_values.get((id(scope), func.value)), cst.Subscript
            )
        if through:
            self.facts.value_callers.add(scope.name[:-1])

    def visit_Call(self, node: cst.Call) -> Optional[bool]:
        func = node.func
        callee = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else None
        if callee is not None:
            positional = sum(1 for a in node.args if a.keyword is None and not a.star)
            keywords = tuple(sorted(a.keyword.value for a in node.args if a.keyword is not None))
            self.facts.call_shapes.setdefault(callee, set()).add((positional, keywords, any(a.star for a in node.args)))
        if type(func) is cst.Attribute and func.attr.value == "format" and string_literal(func.value):
            # `"{}_{}".format(name, random.randint(0, 99))`: the arguments become text
            self._walk_as_text([arg.value for arg in node.args])
            return False
        if type(func) is cst.Name and func.value == "getattr" and len(node.args) >= 2 and not self.is_local("getattr"):
            name = _literal(node.args[1].value)
            if isinstance(name, str) and name is not UNKNOWN:
                self.getattr_names.add(name)  # `getattr(model, "sample")` names the method
            else:
                self.facts.read_attrs.add("*")  # `getattr(self, f"layer{i}")`: any attribute
        if self.qualify(func) in _WAITS:
            # `time.sleep(random())`: a draw there decides how long to wait (a backoff
            # between downloads), no data; walked like an f-string field
            self._walk_as_text([arg.value for arg in node.args])
            return False
        for arg in node.args:
            if type(arg.value) is cst.Lambda:
                self.lambda_args.add(id(arg.value))  # `sorted(key=lambda ...)`, `model.apply(lambda m: ...)`
        qn = self.qualify(func)
        catalog = self.catalog
        self.usage_call(node, qn)
        if type(func) is cst.Name and func.value in ("isinstance", "type") and node.args:
            environments.note_type_only(self.env_calls, node.args[0].value)  # `isinstance(space.sample(), int)`
        if environments.note_call(self.env_calls, self.uses, node, self):
            self._u_emit(EnvironmentDraw, "", node)  # where it runs: RPL102 asks
        source = config_files.load_source(node, qn, self.opened_files)
        if source is not None:
            self.facts.config_sources.append(source)
        spawn.note_call(self.spawn_calls, self, node, qn)
        if isinstance(func, cst.Attribute) and (
            (func.attr.value == "eval" and not node.args)
            or (func.attr.value == "train" and len(node.args) == 1 and _literal(node.args[0].value) is False)
        ):
            self.facts.eval_mode = True  # `model.eval()`: modules' `self.training` is False after it
        if isinstance(func, cst.Attribute) and func.attr.value == "add_argument":
            self.note_add_argument(node)
        elif isinstance(func, cst.Attribute) and func.attr.value.startswith("DEFINE_") and qn is not None \
                and qn.rpartition(".")[0] in ABSL_FLAG_MODULES:
            self.note_absl_flag(node)
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
        self.device_map(node)
        if qn is not None and qn in catalog.seeders:
            return self.seed(node, qn)
        if qn is not None and qn in catalog.instances:
            self.instance(node, qn)
            return
        held = held_state(node, qn)
        if held is not None:
            # `w = torch.qr(torch.randn(n, n))[0]`, then `nn.Parameter(w)`, or a value computed
            # from it (`p, lower, upper = torch.lu_unpack(*torch.lu(w))`, `nn.Parameter(lower)`)
            self.parameter_args.update(id(n) for n in self._computed_from(held))
        dispatch.note_commands(self, node, qn)  # `jsonargparse.CLI({...})`, `fire.Fire(fn)`
        dispatch.emit_registry(self, node)  # `create_model(args.model)`: a registered candidate
        # `models.__dict__[args.arch]()`, `getattr(models, name)()`: a member chosen at run time draws
        # like every member of a module the catalog lists by prefix (`torchvision.models.*`)
        member = qn if qn is not None else self.dynamic_member(func)
        draw = catalog.draw(member) if member is not None and not dunder_member(member) else None
        if draw is not None:
            self.maybe_draw(node, draw, self.text(func))
            return
        if isinstance(func, cst.Attribute):
            method = func.attr.value
            receiver = func.value
            fit_seed = keras.fit_seed(self, node) if method == "fit" else None
            if fit_seed is not None:  # `datagen.fit(x, seed=0)` runs `np.random.seed(0)`
                return self.emit_seed(node, "keras.preprocessing.image.ImageDataGenerator.fit", ("numpy",), fit_seed, False)
            if method == "seed" and not node.args and self.is_generator(receiver):
                self.facts.findings.append(
                    LocalFinding("RPL102", self.span(node), {"call": self.text(func), "variant": "reseed"})
                )
                return
            if qn is None and method in catalog.method_draws and not self.is_rng_instance(receiver):
                for method_draw in catalog.method_draws[method]:
                    if method_draw.requires in self.uses and self.maybe_draw(node, method_draw, self.text(func)):
                        return
        if dispatch.emit_instantiation(self, node) or dispatch.emit_calls(self, node):  # `models.__dict__[args.arch](...)`
            return
        if isinstance(func, cst.Attribute) and func.attr.value in self.dispatch:
            # `args.func(args)`: each subcommand's function may run here
            for dispatched in self.dispatch[func.attr.value]:
                self.emit(Call(dispatched, self.span(node), self.text(func), None, None, self.current_conds()))
            return
        if dispatch.emit_app_run(self, node, qn):  # `app.run(main)`, `tf.app.run()`
            return
        forward = instance_calls.forward_target(self, func)
        if forward is not None:  # `model(x, y)`: what reaches `forward`'s parameters
            self.emit(InstanceCall(forward, self.span(node), self._bindings(node)))
        self._note_call_through_value(func)
        target = instance_calls.method_target(self, func) or self.call_target(func)
        if target is None and type(func) is cst.Name and func.value in self.scope.params \
                and self.scope.kind == "function":
            # `fn(args)` of a parameter: whatever function the callers pass for it
            target = PARAMETER_CALL + func.value
        if target is not None:
            entropy = None
            ref = None
            for arg in node.args:
                if not self._container(arg.value):
                    # a seed is a number: a configuration holding a time stamp among its
                    # fields (`variant=dict(launch_time=str(now))`) passes none
                    entropy = entropy or self.entropy_of(arg.value)
                ref = ref or self.attr_ref(arg.value)
            chain = attr_chain(func)
            text = ".".join(chain) if chain else self.text(func)
            drawn = next((d for a in node.args if type(a.value) is not cst.Call
                          and (d := self.seed_draw_of(a.value)) is not None), None)
            overwritten = (self.overwrite_possible and id(node) in self._overwritten_layers()) or (
                self.idle_model_possible and self.idle_model(node))
            self.emit(Call(target, self.span(node), text, entropy, ref, self.current_conds(), self._bindings(node),
                           self.span(drawn) if drawn is not None else None, overwritten, self._functions_passed(node)))

    def _functions_passed(self, node: cst.Call) -> tuple[tuple[str, str], ...]:
        """The functions a project call passes by name (``init_processes(0, size, main,
        args)``), as (place or keyword, call target): the callee may call them through its
        parameter (``fn(args)``: Call.functions)."""
        found = []
        for index, arg in enumerate(node.args):
            if arg.star:
                break  # the places after a spread are not known
            value = arg.value
            # (a function of this module or one it imports, not a value)
            if type(value) is cst.Name and (value.value in self.top_defs or value.value in self.aliases) \
                    and not self.is_local(value.value):
                passed = self.call_target(value)
                if passed is not None:
                    found.append((arg.keyword.value if arg.keyword is not None else f"#{index}", passed))
        return tuple(found)

    def _container(self, value: cst.BaseExpression) -> bool:
        """A dict, list, tuple or set written out (``dict(...)``, ``{...}``, ``[...]``),
        or a name this scope bound to one."""
        if isinstance(value, cst.Name):
            value = self.bound_values.get((id(self.scope), value.value), value)
        if isinstance(value, (cst.Dict, cst.List, cst.Tuple, cst.Set, cst.DictComp, cst.ListComp, cst.SetComp)):
            return True
        return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in (
            "dict", "list", "tuple", "set"
        ) and self.qualify(value.func) is None

    def dynamic_member(self, func: cst.BaseExpression) -> Optional[str]:
        """The qualified name of a module member picked by a run-time name:
        ``mod.__dict__[key]``, ``vars(mod)[key]``, ``getattr(mod, key)`` give ``mod.key``
        for a literal key, else ``mod.*``."""
        member = dispatch.module_member(self, func)
        module = self.qualify(member[0]) if member is not None else None
        if member is None or module is None:
            return None
        name = _literal(member[1])
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


# Modules a program commonly renames by assignment (`tf1 = tf.compat.v1`).
_MODULE_ALIASES = frozenset({"tensorflow.compat.v1", "tensorflow.compat.v2"}) | (
    ABSL_FLAG_MODULES - {"absl.flags", "gflags"}  # `flags = tf.app.flags`: its DEFINE_* define options
)


def _drop_idle_draws(module: cst.Module, collector: "_Collector") -> None:
    """A notebook's top-level NumPy/`random` draws that feed no training, no file and
    nothing the flow cannot follow are no draws (reprolint.analysis.feeds)."""
    from reprolint.analysis.feeds import draws_feeding_nothing, runs_training

    trains = runs_training(collector.facts.functions)
    idle = draws_feeding_nothing(module, collector.top_draws, collector.qualify, trains)
    if idle:
        collector.facts.events = [
            e for e in collector.facts.events
            if not (isinstance(e, Draw) and isinstance(e.span, _Pending) and id(e.span.node) in idle)
        ]


def _registers(decorator: cst.BaseExpression) -> bool:
    """A decorator of a registry (`@register_model`, `@MODELS.register("mlp")`,
    `@BACKBONES.register_module()`): registration is spelled `register` by every registry
    API; other decorators wrap (`@TryExcept()`, `@threaded`, gradient modes, caching)."""
    chain = attr_chain(decorator.func if isinstance(decorator, cst.Call) else decorator)
    return bool(chain) and "register" in chain[-1].lower()


def dunder_member(qualname: str) -> bool:
    """``torchvision.models.__dict__.keys``: a module's dunder attributes build no model."""
    return any(part.startswith("__") and part.endswith("__") for part in qualname.split(".")[1:])


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
    facts.seeds_environments, facts.seeds_spaces = collector.env_calls.seeded_envs, bool(collector.env_calls.seeded_spaces)
    functions: Optional[dict[int, str]] = None
    for call, data in environments.findings(collector.env_calls):
        if functions is None:
            functions = node_functions(module)
        # the function that holds it: a helper nobody calls runs for no program (site_runs)
        facts.findings.append(LocalFinding("RPL102", collector.span(call), {**data, "in_function": functions.get(id(call))}))
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
        if isinstance(item, (Seed, Call)) and isinstance(item.drawn_from, _Pending):
            item = dataclasses.replace(item, drawn_from=spans[id(item.drawn_from.node)])
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
    facts.option_spans = {dest: spans[id(p.node)] for dest, p in facts.option_spans.items()}  # type: ignore[attr-defined]
    facts.imported_modules = tuple(dict.fromkeys(collector.imported))
    facts.read_attrs |= collector.getattr_names
    facts.star_imports = tuple(dict.fromkeys(collector.star_imports))
    facts.bound_names = module_bound_names(module)
    if source is not None:  # an empty module (`__init__.py`) mentions nothing: not "not known"
        facts.mentioned, facts.class_mentions, facts.def_mentions, facts.table_mentions = mentioned_names(source)
        facts.class_level_mentions, facts.method_mentions = method_mentions(source, facts.class_mentions)
        if collector.getattr_names:  # read as attributes (`getattr(model, "sample")`: `.sample`)
            facts.mentioned = facts.mentioned | {"." + name for name in collector.getattr_names}
        # an attribute read only on a library's module names the library's member, not a
        # project method: `tf.train.Saver(...)` calls no `SfMLearner.train`
        members = {"." + name for name in collector.library_attrs - collector.other_attrs - collector.getattr_names}
        if members:
            facts.mentioned = facts.mentioned - members
            for blocks in (facts.class_mentions, facts.def_mentions, facts.table_mentions,
                           facts.class_level_mentions, facts.method_mentions):
                for block, names in blocks.items():
                    if names & members:
                        blocks[block] = names - members
    facts.uses = frozenset(collector.uses)
    facts.device_only = devices.device_stack(module)
    if any(isinstance(e, (Seed, Draw)) for e in facts.events):
        facts.top_level_work = True
    return facts
