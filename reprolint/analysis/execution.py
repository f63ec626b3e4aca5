"""The one execution walker: per program, the ordered steps every rule reasons about.

:func:`walk` simulates one program over the per-module facts and returns its
:class:`Step` list in execution order. Every program-level question (seeded before the
draw? deterministic mode on? does it use CUDA?) is answered from these steps by
:class:`reprolint.analysis.program.Program`; nothing else walks the events.

Execution order (the approximations rules document):

* module-level statements run in order; importing a project module runs its top level
  once, at the import; the ``__main__`` block runs only for the entry module;
* a resolvable call to a project function or class runs its body at the call (once: a
  body already run is not run again, but its steps take the conditions of every call
  that ran it; recursion and nesting deeper than ``MAX_DEPTH`` are cut);
* both branches of an ``if`` run, in order (each step keeps the conditions on its way);
  loop bodies run once;
* bodies no resolvable call reaches (``forward``, callbacks, methods called on objects)
  run after everything else, module by module in the order the modules ran: a framework
  calls them later (phase ``framework``). A plain function no call reaches may be passed
  as an argument (a callback, ``model.apply(init_fn)``), so its draws count, but its
  seeds do not: a ``set_seed`` nobody calls seeds nothing (the entry script's own
  functions and nested ones wait so too: :mod:`reprolint.analysis.entry_functions`).
  absl's ``app.run(main)`` and ``tf.app.run()`` call ``main`` there. In another program's script
  (a module with its own ``__main__`` block), and in the modules first imported by
  one, only the classes this program builds run;
* deferred draws (dropout masks, shuffling loaders) draw when used: they come last
  (phase ``deferred``).

Each step carries its *context*: the phase, whether it runs in DataLoader worker
processes (a ``Dataset``'s ``__getitem__``/``__iter__`` and what they call) and whether
it runs under ``torch.no_grad()``/``torch.inference_mode()``, and whether TensorFlow
places it on the CPU (``with tf.device("/cpu:0"):`` around it or a call that runs it).

What does not depend on the program is prepared once per module and memoised on the
:class:`ExecutionModel` (shared by every program of a check): the split of a module's
events around its ``__main__`` guard, its canonical functions, the libraries each
project function seeds transitively and the worker classification of methods.
"""

from __future__ import annotations

import enum
import sys
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, NamedTuple, Optional

from reprolint.analysis import dispatch
from reprolint.analysis.condition_facts import DEFAULTS, SPREAD, TEST_ARGUMENT, VIA
from reprolint.analysis.conditions import named_bindings
from reprolint.analysis.entry_functions import waits_for_mention
from reprolint.analysis.facts import UNKNOWN, Call, Cond, Draw, Event, Guard, Import, Region, Seed
from reprolint.analysis.module_facts import PARAMETER_CALL, InstanceCall
from reprolint.analysis.usage_events import OpCall, SeedScope, TfSetting, Usage
from reprolint.catalog.frameworks import CLOSED_BASES

_CHAINED = (Draw, OpCall, TfSetting)  # steps whose call chain the rules list

if TYPE_CHECKING:
    from reprolint.analysis.project_index import ProgramIndex

__all__ = [
    "MAX_DEPTH",
    "At",
    "Execution",
    "ExecutionModel",
    "GuardedCond",
    "Phase",
    "Step",
    "StepContext",
    "walk",
]

MAX_DEPTH = 60

# What the walker does with an event (ExecutionModel.ops): add it as a step, add it
# unless seeds are skipped, add it at the end, run a project call / import, enter or
# leave a no-grad region.
_STEP, _SEED, _DEFERRED, _CALL, _IMPORT, _REGION, _BINDS, _BUILDS, _PARAMETER = range(9)

# The base of custom autograd functions (their static forward/backward run through `apply`).
_AUTOGRAD_FUNCTIONS = frozenset({"torch.autograd.Function", "torch.autograd.function.Function"})

# Methods a DataLoader calls in its worker processes (on a Dataset subclass).
_WORKER_METHODS = frozenset({"__getitem__", "__getitems__", "__iter__", "__next__"})


class At(NamedTuple):
    """An event in a file (the call that led to a step, the seed that runs too late)."""

    path: str
    event: Any


class Phase(str, enum.Enum):
    """When a step runs relative to the code that leads to it."""

    CALL = "call"  # where it is written or called
    FRAMEWORK = "framework"  # a body no resolvable call reaches: a framework calls it later
    DEFERRED = "deferred"  # a deferred draw (dropout mask, shuffling loader): when used


@dataclass(frozen=True, slots=True)
class StepContext:
    phase: Phase = Phase.CALL
    in_worker: bool = False  # runs in DataLoader worker processes
    no_grad: bool = False  # under torch.no_grad() / torch.inference_mode()
    # inside a function decorated `@torch.no_grad()` (or a callee of one) that no call
    # runs with grad: an inference method (sampling, evaluation), not a `with` block of
    # a training step (targets computed without grad are what the loss is taken against)
    no_grad_function: bool = False
    # in a plain function of an imported module that no call reaches (it may be passed
    # as an argument: its draws count, but it does not make the program a training one)
    uncalled: bool = False
    # what the call that runs this function passes for its parameters (Call.bindings,
    # places named by the callee's parameters)
    bindings: tuple[tuple[str, Any], ...] = ()
    # created under `with tf.device("/cpu:0"):` (its own block or a caller's), or in a
    # function a tf.data pipeline runs (`ds.map(preprocess)`): TensorFlow places the ops
    # on the CPU
    tf_cpu: bool = False
    # in a function a tf.data pipeline runs: no gradient flows through its ops
    pipeline: bool = False


_AT_CALL = StepContext()
# a function the program's entry calls with no arguments (a console script's `main()`, a
# command a dispatcher runs): its parameters keep their defaults, as options do
_ENTRY_CALL = StepContext(bindings=((DEFAULTS, ("unknown",)),))


@dataclass(frozen=True, slots=True)
class GuardedCond:
    """A branch condition on the way to a step, with the guarded event that carries it
    (the seed itself, or the project call that leads to it)."""

    path: str
    cond: Cond
    span: Any
    text: str  # source text of the guarded event
    # what the call that ran the condition's function bound its parameters to (the
    # condition is evaluated with them wherever it is asked: a caller's `if use_conv:`)
    bindings: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class Step:
    """One event as it runs in a program."""

    event: Event  # Seed, Draw, Call (a resolved project call) or Usage
    path: str
    outer: tuple[GuardedCond, ...]  # the conditions of the calls that led here
    via: Optional[At]  # the outermost project call that led here, if any
    context: StepContext = _AT_CALL

    @property
    def conds(self) -> tuple[GuardedCond, ...]:
        """Every condition on the way: the calls' (outermost first), then the event's own."""
        own = self.event.conds  # type: ignore[union-attr]
        if not own:
            return self.outer
        bindings = self.context.bindings
        return self.outer + tuple(GuardedCond(self.path, c, self.event.span, self.event.text, bindings) for c in own)  # type: ignore[union-attr]

    def own_conds(self) -> tuple[Cond, ...]:
        return self.event.conds  # type: ignore[union-attr,no-any-return]


@dataclass
class Execution:
    """What :func:`walk` returns: the steps and the modules in the order they ran."""

    entry: str
    steps: list[Step] = field(default_factory=list)
    modules: list[str] = field(default_factory=list)
    # ids of bindings (``StepContext.bindings``) of a function called again with other
    # arguments after its body ran: the defaults of what the first call left out (its
    # DEFAULTS entry) do not surely hold in that body
    rebound: set[int] = field(default_factory=set)
    # (file, qualname) -> the bindings of every resolved call of a function
    call_bindings: dict[tuple[str, str], list[tuple[tuple[str, Any], ...]]] = field(default_factory=dict)
    # the project calls (outermost first) that first led to each draw, op call and
    # framework setting, by (file, span)
    call_chains: dict[tuple[str, Any], tuple[At, ...]] = field(default_factory=dict)
    # (file, qualname) of the bodies that ran at a call or for a framework, not as code
    # no call reaches (``StepContext.uncalled``)
    ran: set[tuple[str, str]] = field(default_factory=set)


class _Function(NamedTuple):
    """A project function of a module, with what the walker asks of it every program."""

    key: tuple[str, str]  # (path, canonical qualname)
    qualname: str
    cls: str  # the first part of the qualname (its class, for a method)
    method: bool  # qualname has a dot
    in_class: bool  # a method of a class the module defines
    in_workers: bool  # ExecutionModel.runs_in_workers


@dataclass(frozen=True)
class _Module:
    """A module's events prepared once: top level with and without the main block."""

    as_main: tuple[tuple[int, Any, Any], ...]  # ExecutionModel.ops of the events
    as_import: tuple[tuple[int, Any, Any], ...]
    functions: tuple["_Function", ...]  # in file order


class ExecutionModel:
    """The per-module memo shared by every program of one check."""

    def __init__(self, index: "ProgramIndex") -> None:
        self.index = index
        # entry module -> functions a declared command calls after importing it
        # (`[project.scripts] train = "pkg.cli:main"`)
        self.entry_calls: dict[str, tuple[str, ...]] = {}
        # entry module -> the commands it dispatches that are programs of their own (their
        # modules' entry calls): that entry's own run leaves them to those programs
        self.dispatched: dict[str, frozenset[tuple[str, str]]] = {}
        # modules the configuration names as entry points (`entry-points`): a runner the
        # analysis does not see calls their functions, so each of them runs
        self.configured_entries: frozenset[str] = frozenset()
        self._modules: dict[str, _Module] = {}
        self._seeds: dict[tuple[str, str], frozenset[str]] = {}
        self._workers: dict[tuple[str, str], bool] = {}
        # a ModuleFacts list of call targets -> the project functions they resolve to
        self._targets: dict[str, set[Optional[tuple[str, str]]]] = {}
        self._function_ops: dict[tuple[str, str], tuple[tuple[int, Any, Any], ...]] = {}
        self._constructors: dict[tuple[str, str], Optional[tuple[str, str]]] = {}

    def module(self, path: str) -> _Module:
        found = self._modules.get(path)
        if found is None:
            facts = self.index.facts[path]
            as_main: list[Event] = []
            as_import: list[Event] = []
            in_guard = False
            for event in facts.events:
                if isinstance(event, Guard):
                    in_guard = event.begin
                    continue
                as_main.append(event)
                if not in_guard:
                    as_import.append(event)
            functions = []
            for qualname, fn in facts.functions.items():
                if fn.qualname != qualname:
                    continue  # another name of a function listed under its own
                cls, dot, _ = qualname.partition(".")
                functions.append(_Function(
                    (path, qualname), qualname, cls, bool(dot), bool(dot) and cls in facts.classes,
                    self.runs_in_workers(path, qualname),
                ))
            found = self._modules[path] = _Module(self.ops(path, as_main), self.ops(path, as_import), tuple(functions))
        return found

    def function_ops(self, path: str, qualname: str) -> tuple[tuple[int, Any, Any], ...]:
        """A project function's events as :meth:`ops` gives them."""
        key = (path, qualname)
        found = self._function_ops.get(key)
        if found is None:
            found = self._function_ops[key] = self.ops(path, self.index.facts[path].functions[qualname].events)
        return found

    def ops(self, path: str, events: Any) -> tuple[tuple[int, Any, Any], ...]:
        """Events of ``path`` with what every program would look up for them resolved once:
        ``(kind, event, extra)``, where a project call carries its (file, qualname) and an
        import the project files it runs; calls and imports outside the project, which
        no program runs, are left out (most of a large tree's events)."""
        ops: list[tuple[int, Any, Any]] = []
        for event in events:
            if isinstance(event, Usage):
                ops.append((_STEP, event, None))
            elif isinstance(event, Seed):
                ops.append((_SEED, event, None))
            elif isinstance(event, Draw):
                ops.append((_DEFERRED if event.deferred else _STEP, event, None))
            elif isinstance(event, Call):
                if dispatch.is_dispatch(event):  # `models.__dict__[args.arch](...)`: each candidate
                    ops.extend((_CALL, call, resolved) for call, resolved in dispatch.expand(self.index, path, event))
                    continue
                if event.target.startswith(PARAMETER_CALL):
                    # `fn(args)` of a parameter: what the call running the body passes
                    ops.append((_PARAMETER, event, event.target[len(PARAMETER_CALL):]))
                    continue
                resolved = self.index.resolve_call(path, event.target)
                if resolved is not None:
                    ops.append((_CALL, event, resolved))
                else:
                    built = self.index.resolve_class(path, event.target)
                    if built is not None:  # a class without a constructor of its own
                        ops.append((_BUILDS, event, built))
                if dispatch.instantiates(self.index, event, resolved):  # `instantiate(cfg.model)`
                    node = dispatch.instantiated_node(self.index, path, event)  # read once for both
                    ops.extend((_CALL, call, built) for call, built in dispatch.instantiated(self.index, path, event, node))
                    ops.extend((_STEP, usage, None) for usage in dispatch.instantiated_usages(event, node))
            elif isinstance(event, InstanceCall):
                resolved = self.index.resolve_call(path, event.target)
                if resolved is not None and resolved[1].endswith(".forward"):
                    ops.append((_BINDS, event, resolved))
            elif isinstance(event, Import):
                chain = tuple(self.index.package_chain(path, event.module))
                if chain:
                    ops.append((_IMPORT, event, chain))
            elif isinstance(event, Region):
                ops.append((_REGION, event, None))
        return tuple(ops)

    def constructor(self, path: str, cls: str) -> Optional[tuple[str, str]]:
        """The project function a call of class ``cls`` (defined in ``path``) runs."""
        key = (path, cls)
        if key not in self._constructors:
            self._constructors[key] = self.index.resolve_call(path, ":" + cls)
        return self._constructors[key]

    def function_seeds(self, path: str, qualname: str) -> frozenset[str]:
        """Libraries a project function seeds, transitively through project calls."""
        return self._function_seeds(path, qualname, set())

    def _function_seeds(self, path: str, qualname: str, visiting: set[tuple[str, str]]) -> frozenset[str]:
        key = (path, qualname)
        if key in self._seeds:
            return self._seeds[key]
        if key in visiting:
            return frozenset()
        visiting.add(key)
        libs: set[str] = set()
        for event in self.index.facts[path].functions[qualname].events:
            if isinstance(event, Seed):
                libs.update(event.libs)
            elif isinstance(event, Call):
                if dispatch.is_dispatch(event):
                    continue  # a candidate picked by name seeds only when picked: no helper's seed
                resolved = self.index.resolve_call(path, event.target)
                if resolved is not None:
                    libs.update(self._function_seeds(*resolved, visiting))
        visiting.discard(key)
        self._seeds[key] = frozenset(libs)
        return self._seeds[key]

    def runs_in_workers(self, path: str, qualname: str) -> bool:
        """Whether a method is one a DataLoader calls in its workers: ``__getitem__``/
        ``__iter__`` of a class deriving from a ``...Dataset``, ``__call__`` of a
        plain class (a transform the dataset applies), or a function a loader is given
        as its ``collate_fn``. Its draws count as worker draws
        only in a program whose DataLoader runs workers."""
        key = (path, qualname)
        found = self._workers.get(key)
        if found is None:
            cls, _, method = qualname.rpartition(".")
            bases = self.index.facts[path].classes.get(cls, ())
            names = [b.rsplit(".", 1)[-1] for b in bases]
            found = method in _WORKER_METHODS and any(n.endswith("Dataset") for n in names)
            # A transform: `__call__` of a plain class (not a Module or Layer), which a
            # dataset calls on each sample in the workers.
            found = found or (method == "__call__" and not any(n.endswith(("Module", "Layer", "Model")) for n in names))
            # a loader's `collate_fn` runs there too, on the samples (calls/loaders.py)
            found = found or key in self._collate_functions()
            self._workers[key] = found
        return found

    def pipeline_functions(self) -> set[Optional[tuple[str, str]]]:
        """The project functions a tf.data pipeline of the project runs (``ds.map(fn)``)."""
        return self._resolved_targets("pipeline_targets")

    def _collate_functions(self) -> set[Optional[tuple[str, str]]]:
        """The project functions the loaders of the project are given as ``collate_fn``, and
        those a torchvision ``transforms.Lambda`` wraps."""
        return self._resolved_targets("collate_targets")

    def _resolved_targets(self, field: str) -> set[Optional[tuple[str, str]]]:
        """The project functions the call targets of one ModuleFacts list resolve to, over
        every module (memoised)."""
        found = self._targets.get(field)
        if found is None:
            found = self._targets[field] = {
                self.index.resolve_call(p, target)
                for p, facts in self.index.facts.items() for target in getattr(facts, field)
            }
        return found


def _workers_first(functions: tuple[_Function, ...]) -> list[_Function]:
    """A module's functions in order, but each class's worker methods (``__getitem__``,
    a transform's ``__call__``) before its other methods: the helpers they call
    (``self.get_captions(ix)``) then run in the workers' context, as the loader runs them,
    not first as a method of a built class in the main process."""
    ordered: list[_Function] = []
    start, cls = 0, None  # where the methods of the current class begin in ``ordered``
    for function in functions:
        in_class = function.in_class
        if not in_class or function.cls != cls:
            start, cls = len(ordered), function.cls if in_class else None
        if in_class and function.in_workers:
            ordered.insert(start, function)
            start += 1  # the class's worker methods keep their own order
        else:
            ordered.append(function)
    return ordered


def walk(model: ExecutionModel, entry: str, library: bool = False) -> Execution:
    """The steps of the program rooted at ``entry`` (its ``__main__`` block included);
    ``library``: ``entry`` is a module no program reaches, whose functions are its API."""
    return _Walker(model, entry, library).run()


class _ImportFails(Exception):
    """A ``from module import name`` the program runs raises ImportError (the module
    binds no such name): the program ends there."""


class _Walker:
    def __init__(self, model: ExecutionModel, entry: str, library: bool = False) -> None:
        self.library = library
        self.model = model
        self.index = model.index
        self.out = Execution(entry)
        self.ran_modules: set[str] = set()
        self.ran_functions: set[tuple[str, str]] = set()
        self.worker_functions: set[tuple[str, str]] = set()  # those run in DataLoader workers
        self.grad_calls: set[tuple[str, str]] = set()  # functions some call runs with grad
        # (file, class) of a class without a constructor -> the conditions of its builds
        self.built_under: dict[tuple[str, str], tuple[GuardedCond, ...]] = {}
        self.running: list[tuple[str, str]] = []  # the functions whose bodies run now, innermost last
        self.deferred: list[Step] = []
        self.depth = 0
        self.calls: list[At] = []  # the project calls being run, outermost first
        self.skip_seeds = False  # running a plain function no call reaches
        self.called: set[tuple[str, str]] = set()  # bodies run at a resolved call
        # the bindings a body ran with (those of the first call that ran it)
        self.first_bindings: dict[tuple[str, str], tuple[tuple[str, Any], ...]] = {}
        # a body's conditions at the calls that ran it: the same at every call, else ()
        self.called_under: dict[tuple[str, str], tuple[GuardedCond, ...]] = {}
        self.called_classes: set[tuple[str, str]] = set()  # (file, class) of a method in `called`
        # Project classes of the modules run so far by the short name of each base, so
        # "may a subclass be built" is a lookup, not a scan of every class per method.
        self.subclasses: dict[str, list[tuple[str, str]]] = {}
        self.indexed_modules = 0
        self.built: set[tuple[str, str]] = set()  # classes _class_maybe_built said yes to
        self.unbuilt_at: dict[tuple[str, str], tuple[int, int]] = {}  # its "no"s, when
        self.foreign: set[str] = set()  # modules first imported by another program's script
        # methods of plain classes that wait until running code names them as an attribute
        # (`model.sample(...)`), and the functions nested in them -> that method
        self.named_methods: set[tuple[str, str]] = set()
        self.in_named_method: dict[tuple[str, str], tuple[str, str]] = {}
        self.library_calls: dict[tuple[str, str], Optional[frozenset[str]]] = {}  # memo of _library_calls
        # each body run: (function, its first call's conditions, its steps' and deferred
        # steps' index ranges), in the order the bodies finished (see _widen_bodies)
        self.bodies: list[tuple[tuple[str, str], tuple[GuardedCond, ...], int, int, int, int]] = []
        # `forward` of a class: whether each call of an instance (`model(x)`) ran under
        # `torch.no_grad()`, and the forwards run as framework code without grad because
        # every call seen before them did (see _forward_without_grad)
        self.instance_no_grad: dict[tuple[str, str], list[bool]] = {}
        self.assumed_no_grad: list[tuple[str, str]] = []

    def run(self) -> Execution:
        try:
            self._run()
        except _ImportFails:
            # the program ends at a `from module import name` of a name the module does
            # not bind: nothing after it runs, nor anything deferred to later
            self._widen_bodies()
            self.deferred.clear()
        return self.out

    def _import_fails(self, event: Import, chain: tuple[str, ...]) -> bool:
        """``from model import Model`` of a module file in the entry script's folder
        (``sys.path[0]``, where Python 3 looks first, for a name that is no standard
        library module's), or ``from .model import Model``, that binds no ``Model`` on any
        branch, outside any ``try``: ImportError."""
        name = event.module.lstrip(".")
        if not name or "." in name or len(chain) != 1:
            return False
        target = chain[0]
        if PurePosixPath(target).name != name + ".py":
            return False
        if not event.module.startswith(".") and (
            name in sys.stdlib_module_names or PurePosixPath(target).parent != PurePosixPath(self.out.entry).parent
        ):
            return False
        bound = self.index.facts[target].bound_names
        return bound is not None and any(n not in bound for n in event.names)

    def _run(self) -> None:
        self.run_module(self.out.entry, as_main=True)
        for qualname in self.model.entry_calls.get(self.out.entry, ()):
            # a console script imports its module, then calls its function
            if qualname in self.index.facts[self.out.entry].functions:
                self.run_function(self.out.entry, qualname, (), None, _ENTRY_CALL)
        elsewhere = self.model.dispatched.get(self.out.entry, frozenset())  # other programs' commands
        done = 0
        framework = StepContext(Phase.FRAMEWORK)
        unbuilt: list[tuple[str, str]] = []
        # plain functions of imported modules, run last: a method or function that runs
        # later in module order may call one (then it runs there, called); the rest
        # (perhaps passed on as a callback) run at the end, as uncalled, once code that
        # runs mentions them (a function mentioned only by another uncalled one waits
        # for that one to run)
        # (function, module, qualname, context, the name whose mention runs it)
        orphans: list[tuple[tuple[str, str], str, str, StepContext, str]] = []
        waiting: list[tuple[tuple[str, str], str, str, StepContext, str]] = []
        while True:
            self._run_modules(done, framework, unbuilt, orphans)
            done = len(self.out.modules)
            waiting = [o for o in (*waiting, *orphans) if o[0] not in self.ran_functions and o[0] not in elsewhere]
            orphans.clear()
            # each with the conditions under which the code that mentions it runs
            pending = [(o, under) for o in waiting if (under := self._orphan_under(o[0], o[1], o[4])) is not None]
            if not pending:
                break
            taken = {o[0] for o, _ in pending}
            waiting = [o for o in waiting if o[0] not in taken]
            for (key, path, qualname, context, _), under in pending:
                if key in self.ran_functions:
                    continue  # an earlier one of them called it
                self.called_under.setdefault(key, under)
                if key in self.named_methods or key in self.in_named_method:
                    # a method whose call the analysis did not resolve: it runs as one
                    self.run_function(path, qualname, under, None, context)
                    continue
                if not context.in_worker and self._called_from_table_in_workers(path, qualname):
                    context = replace(context, in_worker=True)
                # its seeds count for its own draws only (a seeding helper nobody calls
                # seeds nothing the program draws elsewhere): SeedScope
                self.out.steps.append(Step(SeedScope(qualname, None, qualname, (), True), path, (), None, context))  # type: ignore[arg-type]
                self.run_function(path, qualname, under, None, context)
                self.out.steps.append(Step(SeedScope(qualname, None, qualname, (), False), path, (), None, context))  # type: ignore[arg-type]
            self._build_late(unbuilt, framework)
        self._widen_bodies()
        self._check_no_grad_forwards()
        self._check_grad_calls()
        self.out.steps.extend(self.deferred)

    def _called_from_table_in_workers(self, path: str, qualname: str) -> bool:
        """A plain function no call names, which only its own module mentions, where
        every function that calls a function taken out of a list or table
        (``for op, lo, hi in self.ops: img = op(img, v)``) ran in DataLoader workers:
        it is one of a transform's operations, drawn in the workers like the transform
        itself (RandAugment's op list)."""
        ran = [c for c in self.index.facts[path].value_callers if (path, c) in self.ran_functions]
        if not ran or not all((path, c) in self.worker_functions for c in ran):
            return False
        name = qualname.rpartition(".")[2]
        for other in self.out.modules:
            if other == path:
                continue
            mentioned = self.index.facts[other].mentioned
            if mentioned is None or name in mentioned or "." + name in mentioned:
                return False  # another module may take it and call it anywhere
        return True

    def _forward_without_grad(self, key: tuple[str, str], context: StepContext) -> bool:
        """A ``forward`` run as framework-called code whose instance calls, all seen so far,
        run under ``torch.no_grad()`` (an Inception network called only in a metric
        computed without grad): autograd records nothing in it. Checked again when the
        program has run (:meth:`_check_no_grad_forwards`)."""
        calls = self.instance_no_grad.get(key)
        return context.phase is Phase.FRAMEWORK and not context.no_grad and key[1].endswith(".forward") \
            and bool(calls) and all(calls)

    def _check_grad_calls(self) -> None:
        """A function first run from a ``@torch.no_grad()`` method (an evaluation before
        training) that a training step also calls: its steps, and its callees', are no
        inference method's own."""
        for body, _, start, end, d_start, d_end in self.bodies:
            if body in self.grad_calls and not self.index.facts[body[0]].functions[body[1]].no_grad:
                self._clear_in_body(start, end, d_start, d_end, "no_grad_function")

    def _clear_in_body(self, start: int, end: int, d_start: int, d_end: int, flag: str) -> None:
        """Turn a context flag (``no_grad``, ``no_grad_function``) off for the steps a body
        ran, its callees' included (``self.bodies``' ranges)."""
        for steps, lo, hi in ((self.out.steps, start, end), (self.deferred, d_start, d_end)):
            for i in range(lo, hi):
                if getattr(steps[i].context, flag):
                    steps[i] = replace(steps[i], context=replace(steps[i].context, **{flag: False}))

    def _check_no_grad_forwards(self) -> None:
        """A forward run without grad because its instance calls seen by then were, which
        a call seen later runs with grad (a training step a framework calls): its body's
        steps get the grad back."""
        for key in self.assumed_no_grad:
            if all(self.instance_no_grad.get(key, ())):
                continue
            for body, _, start, end, d_start, d_end in self.bodies:
                if body == key:
                    self._clear_in_body(start, end, d_start, d_end, "no_grad")

    def _mentioned(
        self, qualname: str, depth: int = 0, owner: Optional[str] = None, attribute: bool = False,
    ) -> Optional[tuple[GuardedCond, ...]]:
        """The conditions under which code of the program that runs uses the name of the
        plain function ``qualname`` of module ``owner`` (a call the analysis did not
        resolve, a callback passed on): ``()`` where that code runs whenever the program
        does, None where nothing that runs mentions it (it is never called). A module
        that defines a top-level function of that name itself means its own.
        ``attribute``: ``qualname`` is a method, named only as an attribute (``.sample``;
        a bare ``sample`` is a local name, in its own module or another;
        ``getattr(model, "sample")`` with a literal counts as ``.sample``)."""
        name = qualname.rpartition(".")[2]
        if name.startswith("<lambda"):
            # a lambda stored for later (facts.visit_Lambda) has no name of its own to be
            # mentioned by: it exists once its module or function ran, and may be called
            return ()
        found: Optional[tuple[GuardedCond, ...]] = None
        for path in self.out.modules:
            facts = self.index.facts[path]
            if owner is not None and path != owner and name in facts.def_mentions and not attribute:
                continue
            # another module may name it as an attribute (`facenet.train(...)`); its own
            # module only by its name (`tf.train`, `model.train()` there are not it)
            # (a method, `attribute`, is named as one in its own module too: `self.sample`)
            # (a method is named only as an attribute anywhere: a bare `loss` in another
            # module is a local of that module, not `BaseGAttN.loss`)
            names = ("." + name,) if attribute else (name, "." + name) if path != owner else (name,)
            if facts.mentioned is None or any(n in facts.mentioned for n in names):
                return ()
            # in a class's body: only where this program may build the class; in a
            # function's, only where it ran (called, or itself run as uncalled); in a
            # module-level table's value, only where code that runs reads the table
            mentions = self.index.block_mentions(path)
            for kind, block in (hit for n in names for hit in mentions.get(n, ())):
                if kind == "class":
                    under = self._class_under(path, block, depth)
                    if under is not None and self.index.standalone_class(path, block) \
                            and not any(n in facts.class_level_mentions.get(block, (n,)) for n in names):
                        # named only in methods of the class: where one of them runs
                        # (`self.load_train_batch()` in a `build_train_graph` a test
                        # script that builds the class never calls)
                        under = self._method_under(path, block, names, under, depth)
                elif kind == "def":
                    ran = (path, block) in self.ran_functions
                    under = self.called_under.get((path, block), ()) if ran else None
                else:
                    under = self._mentioned(block, depth + 1) if depth < 2 else None
                if under is not None:
                    if not under:
                        return ()
                    found = under if found is None else _either(found, under)
        return found

    def _method_under(
        self, path: str, cls: str, names: tuple[str, ...], built: tuple[GuardedCond, ...], depth: int = 0,
    ) -> Optional[tuple[GuardedCond, ...]]:
        """The conditions under which a method of ``cls`` that mentions one of ``names``
        runs (None: none does, yet): one that has run, under its call's; one a library
        may call (``forward``, a special method, any method of a class on an open
        library base), where the class is ``built``; one only code calls by name, where
        running code names it (``forward`` calling ``self.get_loss``, which names
        ``self.loss_labels``), a few calls deep."""
        called = self._library_calls(path, cls)
        found: Optional[tuple[GuardedCond, ...]] = None
        for method, mentioned in self.index.facts[path].method_mentions.items():
            owner, _, name = method.partition(".")
            if owner != cls or not any(n in mentioned for n in names):
                continue
            if (path, method) in self.ran_functions:
                under = self.called_under.get((path, method), ())
            elif called is None or name in called or (name.startswith("__") and name.endswith("__")):
                under = built
            elif depth < 2 and (named := self._mentioned(method, depth + 1, owner=path, attribute=True)) is not None:
                under = named
            else:
                continue
            if not under:
                return ()
            found = under if found is None else _either(found, under)
        return found

    def _orphan_under(self, key: tuple[str, str], path: str, name: str) -> Optional[tuple[GuardedCond, ...]]:
        """The conditions under which a function that waits runs (None: not yet): a
        function nested in a method that waits runs once that method has run; such a
        method once running code names it as an attribute (:meth:`_waits_for_name`)."""
        method = self.in_named_method.get(key)
        if method is not None:
            return self._mentioned(name, owner=path) if method in self.ran_functions else None
        return self._mentioned(name, owner=path, attribute=key in self.named_methods)

    def _waits_for_name(self, path: str, qualname: str) -> bool:
        """A method no library calls by its name (``_library_calls``), other than a
        special method: it runs only where code names it (``model.sample(...)``,
        ``self.sample``, ``fn=net.sample``); a ``Model`` that a training script and a
        sampling script both build runs ``sample`` only in the one that calls it."""
        cls, _, name = qualname.rpartition(".")
        if not cls or "." in cls or (name.startswith("__") and name.endswith("__")):
            return False
        called = self._library_calls(path, cls)
        return called is not None and name not in called and self._mentioned(qualname, owner=path, attribute=True) is None

    def _waiting_method(self, path: str, qualname: str) -> Optional[tuple[str, str]]:
        """The method that waits for its name (``named_methods``) which ``qualname`` is
        nested in (``Model.sample.weighted_pick``), if any."""
        parts = qualname.split(".")
        for end in range(2, len(parts)):
            method = (path, ".".join(parts[:end]))
            if method in self.named_methods:
                return method
        return None

    def _library_calls(self, path: str, cls: str, depth: int = 0) -> Optional[frozenset[str]]:
        """The names of the methods of the project class ``cls`` that library code may
        call: none for a class whose bases are ``object`` and such classes, those of
        ``torch.nn.Module`` (``CLOSED_BASES``) for a module; None (any) for a class on any
        other library base (``keras.Model``, ``gym.Env``, an abstract base) or one whose
        bases are not known."""
        key = (path, cls)
        if key in self.library_calls:
            return self.library_calls[key]
        self.library_calls[key] = None  # a cycle of bases (or one too deep): any
        bases = self.index.facts[path].classes.get(cls)
        called: Optional[frozenset[str]] = frozenset() if bases is not None and depth < 8 else None
        for base in bases or ():
            if called is None:
                break
            if base in (":object", "object", "builtins.object"):
                continue
            closed = CLOSED_BASES.get(base)
            if closed is not None:
                called |= closed
                continue
            found = self.index.resolve_class(path, base) if base else None
            inherited = self._library_calls(found[0], found[1], depth + 1) if found is not None else None
            called = None if inherited is None else called | inherited
        self.library_calls[key] = called
        return called

    def _named_by_nobody(self, path: str, qualname: str) -> bool:
        """A method other than ``forward`` that no code of the program that has run names
        (``self.generate(...)``, ``model.generate``): it runs only as framework-called
        code, which calls no such method."""
        cls, dot, name = qualname.rpartition(".")
        return bool(dot) and name != "forward" and self._mentioned(qualname, owner=path) is None

    def _class_under(self, path: str, cls: str, depth: int) -> Optional[tuple[GuardedCond, ...]]:
        """The conditions under which the program may build ``cls`` (defined in
        ``path``): those of its project constructor's calls, or, for a class without one,
        those under which code that runs names it (None: never built)."""
        if not self._class_maybe_built(path, cls):
            return None
        if self.model.constructor(path, cls) is not None:
            return self._built_under(path, cls)
        return self._mentioned(cls, depth + 1) if depth < 2 else None

    def _run_modules(
        self, done: int, framework: StepContext, unbuilt: list[tuple[str, str]],
        orphans: list[tuple[tuple[str, str], str, str, StepContext, str]],
    ) -> None:
        """The functions of the modules from ``done`` on (and those the bodies import)."""
        while done < len(self.out.modules):
            path = self.out.modules[done]
            done += 1
            other_entry = self._foreign(path)
            for key, qualname, cls, method, in_class, in_workers in _workers_first(self.model.module(path).functions):
                if key in self.ran_functions:
                    continue
                if other_entry and (not method or not self._instantiated(path, cls)):
                    # Another program's script: its classes run only when this program
                    # builds them, its functions only when called.
                    continue
                if in_class and not self._class_maybe_built(path, cls):
                    # A class whose project constructor no call reaches is never built:
                    # its methods run for nobody (unless a later body builds it).
                    unbuilt.append(key)
                    continue
                context = framework
                if in_workers:
                    if in_class and not self._maybe_built(path, cls):
                        continue  # a Dataset this program never builds loads nothing
                    if in_class and self.model.constructor(path, cls) is None and self._mentioned(cls, owner=path) is None:
                        # no constructor of its own, and no code that runs names the class:
                        # a transform this program never builds (`Augmenter` beside the
                        # `Normalizer()` and `Resizer()` it uses) transforms nothing
                        continue
                    context = StepContext(Phase.FRAMEWORK, in_worker=True)
                # A plain function no call reaches may still be passed as an argument
                # (a callback, `model.apply(init_fn)`): its draws count, but a seeding
                # helper nobody calls seeds nothing.
                if not method and path != self.out.entry:
                    function = self.index.facts[path].functions.get(qualname)
                    if function is not None and function.registers:
                        # a decorator may register it (`@register_model`): code the
                        # analysis does not see may call it by a key, so it runs, uncalled
                        self.skip_seeds = True
                        self.run_function(path, qualname, (), None, replace(context, uncalled=True))
                        self.skip_seeds = False
                        continue
                    orphans.append((key, path, qualname, replace(context, uncalled=True), qualname))
                    continue
                if not self.library and waits_for_mention(self, path, qualname, method, in_class):
                    orphans.append((key, path, qualname, context, qualname))  # runs once running code names it
                    continue
                if in_class and not self.library:
                    waiting_method = self._waiting_method(path, qualname)
                    if waiting_method is not None:
                        self.in_named_method[key] = waiting_method  # runs once that method ran
                        orphans.append((key, path, qualname, context, qualname.rpartition(".")[2]))
                        continue
                    if self._waits_for_name(path, qualname):
                        self.named_methods.add(key)
                        orphans.append((key, path, qualname, context, qualname))
                        continue
                if in_class and self._autograd_function(path, cls):
                    # a custom autograd Function runs where code that runs calls its
                    # `apply` (`vq = VectorQuantization.apply`: where `vq` is called)
                    orphans.append((key, path, qualname, context, cls))
                    continue
                self.skip_seeds = not method
                self.run_function(path, qualname, self._built_under(path, cls) if in_class else (), None, context)
                self.skip_seeds = False
            if done == len(self.out.modules):
                self._build_late(unbuilt, framework)

    def _widen_bodies(self) -> None:
        """A body runs once, at its first call, and its steps carry that call's conditions;
        where later calls ran it under others (``ResNet(...)`` in each branch of ``if
        model_depth == 10: ... elif model_depth == 18: ...``), its steps take the
        conditions of every call (``called_under``), innermost bodies first, so a default
        run that takes a later branch runs them too."""
        for key, first, start, end, d_start, d_end in self.bodies:  # innermost first: they finish first
            under = self.called_under.get(key)
            if under is None or under == first:
                continue
            under = _either(first, under)  # a body first run unconditionally stays so
            if under == first:
                continue
            size = len(first)
            for steps, lo, hi in ((self.out.steps, start, end), (self.deferred, d_start, d_end)):
                for i in range(lo, hi):
                    step = steps[i]
                    if step.outer[:size] == first:
                        steps[i] = replace(step, outer=under + step.outer[size:])

    def _autograd_function(self, path: str, cls: str) -> bool:
        """Whether ``cls`` of module ``path`` subclasses ``torch.autograd.Function``."""
        return any(base in _AUTOGRAD_FUNCTIONS for base in self.index.facts[path].classes.get(cls, ()))

    def _build_late(self, unbuilt: list[tuple[str, str]], framework: StepContext) -> None:
        """Run the methods of classes built by bodies that ran after their module's turn
        (a factory function run last builds its model class)."""
        built = [(p, q) for p, q in unbuilt if self._class_maybe_built(p, q.partition(".")[0])]
        if built:
            taken = set(built)
            unbuilt[:] = [u for u in unbuilt if u not in taken]
        for p, q in built:
            context = framework
            if self.model.runs_in_workers(p, q):
                context = StepContext(Phase.FRAMEWORK, in_worker=True)
            self.run_function(p, q, self._built_under(p, q.partition(".")[0]), None, context)

    def _built_under(self, path: str, cls: str) -> tuple[GuardedCond, ...]:
        """The conditions under which the program builds ``cls``: those of its project
        constructor's calls when they all share them (``if args.ema: ema = EMA(model)``,
        ``models.__dict__[args.arch](...)``), so its methods run under them too."""
        constructor = self.model.constructor(path, cls)
        if constructor is None:
            return self.built_under.get((path, cls), ())
        return self.called_under.get(constructor, ())

    def _foreign(self, path: str) -> bool:
        """Another program's script (a module with its own ``__main__`` block), or a
        module this program reached only through one."""
        if path == self.out.entry:
            return False
        return self.index.facts[path].has_main_guard or path in self.foreign

    def _maybe_built(self, path: str, cls: str) -> bool:
        """Whether this program may build ``cls``: its project constructor ran at a
        call, or the constructor is not the project's (then nobody can tell)."""
        constructor = self.model.constructor(path, cls)
        return constructor is None or constructor in self.called

    def _class_maybe_built(self, path: str, cls: str) -> bool:
        """Whether this program may build ``cls``, or a project class deriving from it
        (by the base's name: ``class Student(Teacher)`` builds a ``Teacher`` too)."""
        key = (path, cls)
        if key in self.built:
            return True
        # The answer changes only when a constructor runs or a module is added (the
        # program only grows): a "no" with neither since is still a "no".
        version = (len(self.called), len(self.out.modules))
        if self.unbuilt_at.get(key) == version:
            return False
        if self._any_built(path, cls):
            self.built.add(key)
            return True
        self.unbuilt_at[key] = version
        return False

    def _any_built(self, path: str, cls: str) -> bool:
        if self._maybe_built(path, cls):
            return True
        modules = self.out.modules
        while self.indexed_modules < len(modules):
            p = modules[self.indexed_modules]
            self.indexed_modules += 1
            for sub, bases in self.index.facts[p].classes.items():
                for base in {b.rpartition(".")[2].lstrip(":") for b in bases}:
                    if base != sub:
                        self.subclasses.setdefault(base, []).append((p, sub))
        return any(self._maybe_built(p, sub) for p, sub in self.subclasses.get(cls, ()))

    def _instantiated(self, path: str, cls: str) -> bool:
        """Whether a method of ``cls`` (its constructor) ran at a call in this program."""
        return (path, cls) in self.called_classes

    def run_module(self, path: str, as_main: bool = False, importer: Optional[str] = None) -> None:
        if path in self.ran_modules:
            return
        self.ran_modules.add(path)
        if importer is not None and self._foreign(importer):
            self.foreign.add(path)
        self.out.modules.append(path)
        module = self.model.module(path)
        self.run_events(path, module.as_main if as_main else module.as_import, (), None, _AT_CALL)

    def run_function(
        self, path: str, qualname: str, conds: tuple[GuardedCond, ...],
        via: Optional[At], context: StepContext,
    ) -> None:
        key = (path, qualname)
        if key in self.ran_functions or self.depth > MAX_DEPTH:
            return
        self.ran_functions.add(key)
        if not context.uncalled:
            self.out.ran.add(key)
        start, deferred = len(self.out.steps), len(self.deferred)
        fn = self.index.facts[path].functions[qualname]
        cls, dot, name = qualname.rpartition(".")
        if not context.no_grad and self._forward_without_grad(key, context):
            context = replace(context, no_grad=True)
            self.assumed_no_grad.append(key)
        if not context.no_grad and (fn.no_grad or (
            dot and name in ("forward", "backward") and self._autograd_function(path, cls)
        )):
            # autograd records nothing in a custom Function's forward and backward: the
            # Function's own backward is the gradient (create_graph aside)
            context = replace(context, no_grad=True)
        if fn.no_grad and not context.no_grad_function:
            context = replace(context, no_grad_function=True)
        if not context.in_worker and self.model.runs_in_workers(path, qualname):
            context = replace(context, in_worker=True)
        if context.in_worker:
            self.worker_functions.add(key)
        if not context.pipeline and key in self.model.pipeline_functions():
            context = replace(context, pipeline=True, tf_cpu=True)
        self.depth += 1
        self.running.append(key)
        self.run_events(path, self.model.function_ops(path, qualname), conds, via, context)
        self.running.pop()
        self.depth -= 1
        self.bodies.append((key, conds, start, len(self.out.steps), deferred, len(self.deferred)))

    def _passed_function(self, param: str) -> Optional[tuple[str, str]]:
        """The project function that the call running the current body passes for its
        parameter ``param`` (Call.functions): ``init_processes(0, size, main, args)`` runs
        the ``fn(args)`` in ``init_processes`` as ``main(args)``. None where the body runs
        for no call of the program's (uncalled, or called by a framework)."""
        if not self.calls or not self.running:
            return None
        at, running = self.calls[-1], self.running[-1]
        if not at.event.functions or self.index.resolve_call(at.path, at.event.target) != running:
            return None
        file, qualname = running
        method = qualname.partition(".")[1]
        for name, target in named_bindings(at.event.functions, self.index.facts[file].functions.get(qualname), method):
            if name == param:
                return self.index.resolve_call(at.path, target)
        return None

    def run_events(
        self, path: str, ops: tuple[tuple[int, Any, Any], ...], outer: tuple[GuardedCond, ...],
        via: Optional[At], context: StepContext,
    ) -> None:
        # The hot loop of the check on large trees: the events come resolved
        # (ExecutionModel.ops), the most frequent kind first.
        steps = self.out.steps
        regions: list[StepContext] = []
        for kind, event, extra in ops:
            if kind == _STEP:
                steps.append(Step(event, path, outer, via, context))
                if self.calls and type(event) in _CHAINED:
                    self.out.call_chains.setdefault((path, event.span), tuple(self.calls))
            elif kind == _CALL:
                file, qualname = extra
                if file not in self.ran_modules:
                    if event.target.startswith(dispatch.REGISTERED):
                        continue  # `create_model(name)`: a module not imported registered nothing
                    # Calling into a module means it was imported (maybe by a path we missed).
                    self.run_module(file, importer=path)
                step = Step(event, path, outer, via, context)
                steps.append(step)
                self.called.add(extra)
                if not context.no_grad:
                    self.grad_calls.add(extra)
                conds = step.conds
                before = self.called_under.setdefault(extra, conds)
                if before != conds:
                    self.called_under[extra] = _either(before, conds)
                cls, dot, _ = qualname.partition(".")
                if dot:
                    self.called_classes.add((file, cls))
                bindings = named_bindings(event.bindings, self.index.facts[file].functions.get(qualname), dot)
                if bindings:
                    bindings = _passed_on(bindings, context, self.running[-1] if self.running else None)
                self.out.call_bindings.setdefault(extra, []).append(bindings)
                if extra not in self.ran_functions:
                    if all(name != SPREAD for name, _ in bindings):
                        bindings = (*bindings, (DEFAULTS, ("unknown",)))  # left out: the default
                    self.first_bindings[extra] = bindings
                    called = replace(context, bindings=bindings)
                    self.calls.append(At(path, event))
                    self.run_function(file, qualname, step.conds, via or At(path, event), called)
                    self.calls.pop()
                else:
                    first = self.first_bindings.get(extra)
                    if first is not None and id(first) not in self.out.rebound and \
                            named_bindings(event.bindings, self.index.facts[file].functions.get(qualname), dot) != first[:-1]:
                        # called again with other arguments: the body ran with the first
                        # call's, so a parameter's default no longer surely holds there
                        self.out.rebound.add(id(first))
            elif kind == _BINDS:
                # `model(x, y)`: what reaches `forward`'s parameters (it runs later, as
                # framework-called code), unless the method making the call runs for
                # nobody (a `generate` no code of the program names)
                running = self.running[-1] if self.running else None
                if running is not None and self._named_by_nobody(*running):
                    continue
                file, qualname = extra
                self.instance_no_grad.setdefault(extra, []).append(context.no_grad)
                bindings = named_bindings(event.bindings, self.index.facts[file].functions.get(qualname), ".")
                self.out.call_bindings.setdefault(extra, []).append(_passed_on(bindings, context, running))
            elif kind == _PARAMETER:
                run = self._passed_function(extra)
                if run is not None:  # `fn(args)` runs the `main` the caller passed
                    self.run_events(path, ((_CALL, event, run),), outer, via, context)
            elif kind == _BUILDS:
                # `UIModel()` of a class without a constructor: its methods run under the
                # conditions of the calls that build it (_built_under)
                conds = Step(event, path, outer, via, context).conds
                before = self.built_under.setdefault(extra, conds)
                if before != conds:
                    self.built_under[extra] = _either(before, conds)
            elif kind == _SEED:
                if not self.skip_seeds:
                    steps.append(Step(event, path, outer, via, context))
            elif kind == _DEFERRED:
                deferred = replace(context, phase=Phase.DEFERRED)
                self.deferred.append(Step(event, path, outer, via, deferred))
            elif kind == _IMPORT:
                for module in extra:
                    self.run_module(module, importer=path)
                if event.names and not self.library and self._import_fails(event, extra):
                    raise _ImportFails(path)
            elif event.begin:  # _REGION
                regions.append(context)
                if event.device is not None:
                    context = replace(context, tf_cpu=event.device == "cpu")
                else:
                    context = replace(context, no_grad=True)
            elif regions:
                context = regions.pop()


# ----------------------------------------------------------------------------- conditions

def _either(a: tuple[GuardedCond, ...], b: tuple[GuardedCond, ...]) -> tuple[GuardedCond, ...]:
    """The conditions under which a body runs that two calls run: their common ones,
    then either call's own (``arch == "vgg11"`` at the factory, ``arch == "VGG"`` at the
    class, from one dispatch) as one ``anyof`` condition, each alternative evaluated with
    its own bindings; none past the common ones when a call has no more (it runs
    whenever they hold) or the alternatives grow past _MAX_ALTERNATIVES."""
    common = 0
    while common < min(len(a), len(b)) and a[common] == b[common]:
        common += 1
    rest_a, rest_b = a[common:], b[common:]
    if not rest_a or not rest_b:
        return a[:common]
    alternatives = (*_alternatives(rest_a), *_alternatives(rest_b))
    if len(alternatives) > _MAX_ALTERNATIVES:
        return a[:common]
    first = rest_a[0]
    text = " or ".join(dict.fromkeys(g.cond.text for g in (rest_a[-1], rest_b[-1])))
    joined = Cond(("anyof", alternatives), True, text)
    return (*a[:common], GuardedCond(first.path, joined, first.span, first.text))


_MAX_ALTERNATIVES = 512


def _alternatives(conds: tuple[GuardedCond, ...]) -> tuple[Any, ...]:
    """One alternative of an ``anyof`` per way through: ((tree, polarity, bindings), ...)."""
    if len(conds) == 1 and conds[0].cond.tree[0] == "anyof":
        return conds[0].cond.tree[1]
    return (tuple((g.cond.tree, g.cond.polarity, g.bindings) for g in conds),)


def _bind_parameters(tree: Any, caller: StepContext, known: bool) -> Any:
    """``tree`` with each parameter of the caller it reads (``("const", default, "param",
    name)``) replaced by what the caller's call bound it to, its default where that call
    is known and left it out, else an unknown value."""
    if type(tree) is not tuple:
        return tree
    if len(tree) == 4 and tree[0] == "const" and tree[2] == "param":
        bound = next((value for n, value in caller.bindings if n == tree[3]), None)
        if bound is not None:
            return bound
        return ("const", tree[1]) if known and tree[1] != UNKNOWN else ("unknown",)
    return tuple(_bind_parameters(part, caller, known) for part in tree)


def _passed_on(
    bindings: tuple[tuple[str, Any], ...], caller: StepContext, running: Optional[tuple[str, str]] = None,
) -> tuple[tuple[str, Any], ...]:
    """A call's bindings with the caller's own parameters passed on (``conv_nd(dims,
    ...)`` inside ``def __init__(self, dims=2)``) replaced by what the caller's call
    bound them to; a parameter its call left out keeps the caller's default when that
    call is known (it ran at a resolved call, with no ``*args``/``**kwargs`` spread that
    may pass it); otherwise it is bound to an unknown value (the callee's default does
    not hold either), or, where the function running the call is known, to ``(VIA,
    file, qualname, parameter)``: whatever that function's own calls pass for it (read
    where a rule asks, as the op rules' ``param-input`` facts do)."""
    out = []
    known = caller.phase is Phase.CALL and not caller.uncalled and all(n != SPREAD for n, _ in caller.bindings)
    for name, tree in bindings:
        if tree[0] == TEST_ARGUMENT and len(tree) == 2:
            # a test of the caller's parameters (`training=mode == "train"`): evaluated with
            # what the caller's call bound them to, not in the callee's frame
            out.append((name, (TEST_ARGUMENT, _bind_parameters(tree[1], caller, known))))
            continue
        if len(tree) == 4 and tree[0] == "const":  # a parameter of the caller, passed on
            bound = next((value for n, value in caller.bindings if n == tree[3]), None)
            if bound is not None:
                out.append((name, bound))
            elif known and tree[1] != UNKNOWN:
                out.append((name, ("const", tree[1])))
            elif running is not None:
                # passed, value not known here: no default holds, but the calls of the
                # function running (`running`) say what reaches it (a `forward` run as
                # framework-called code gets what `model(x, y)` passes: InstanceCall)
                out.append((name, (VIA, *running, tree[3])))
            else:
                out.append((name, ("unknown",)))
            continue
        out.append((name, tree))
    return tuple(out)
