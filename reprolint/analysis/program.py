"""The program model: entry points, the project import graph, and the result object
every program-level rule queries.

A *program* is an entry point plus every project module it imports, transitively. The
one execution walker (:mod:`reprolint.analysis.execution`) gives its steps in execution
order; :class:`Program` answers every question about them: which seeds run (with the
program's final option defaults), which draws come before a seed of their library, the
op/flag/order usages, "uses CUDA by default", "deterministic mode on". Modules that no
program reaches are checked as programs of their own (``is_library``).

Which file an import loads and which function a call runs is
:class:`~reprolint.analysis.project_index.ProgramIndex`'s.
"""

from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass, replace
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, Generic, Iterable, Iterator, NamedTuple, Optional, TypeVar, Union, cast

from reprolint.analysis.condition_facts import DEFAULTS, SOME_VALUE
from reprolint.analysis.cuda_selection import CudaSelection, Switch
from reprolint.analysis.self_attrs import stored_value
from reprolint.analysis.config_files import config_defaults
from reprolint.analysis.conditions import evaluate
from reprolint.analysis.execution import At, Execution, ExecutionModel, Phase, Step, walk
from reprolint.analysis.facts import UNKNOWN, Call, Draw, ModuleFacts, Seed
from reprolint.analysis.usage_events import (
    CheckpointLoad, FlagSet, GraphScope, HfTrainer, HfTrainingArgs,
    LightningTrainer, LoaderBuilt, ModuleStart, OpCall, SeedScope, TfApi, TimedCode, TrainStep, Usage,
)
from reprolint.analysis.options import options_read
from reprolint.analysis.project_index import ProgramIndex
from reprolint.catalog.rng import old_keras_library
from reprolint.analysis.test_modules import defines_test_cases, is_test_module, tests_left_out
from reprolint.analysis.tf_versions import keras_backend, old_keras
from reprolint.analysis.values import ConfigKey, OptionRef

__all__ = [
    "Blame",
    "DrawOutcome",
    "HelperCall",
    "Program",
    "Role",
    "SeedOutcome",
    "Switch",
    "UsageAt",
    "UsageEvent",
    "analyse_programs",
    "evaluate",
    "defines_test_cases",
    "is_test_module",
    "tests_left_out",
    "library_programs",
]


class Blame(NamedTuple):
    """The condition that skips a seeding call with the default options."""

    path: str  # the file of the guarded call (and of its condition)
    span: Any  # the guarded call (the seed, or the project call leading to it)
    call_text: str
    condition: str  # the condition as written, negated when its false branch seeds
    options: tuple[str, ...] = ()  # the options the condition reads (options.options_read)


@dataclass(frozen=True)
class SeedOutcome:
    """A seeding event as it ran in a program."""

    seed: Seed
    path: str
    default_path: bool  # runs under the default values of the program's options
    blame: Optional[Blame]  # the condition that skips it by default (None: it runs)
    via: Optional[At] = None  # the project call that led here, if any


@dataclass(frozen=True)
class DrawOutcome:
    draw: Draw
    path: str
    seeded_before: bool
    later_seed: Optional[At]  # the first seed of the library, when it runs only after the draw
    # The library whose seed makes the draw repeat: its own, or torch's for a `random`
    # or NumPy draw in DataLoader workers (torch >= 1.9 reseeds both there from its
    # base seed).
    needs: str = ""
    in_worker: bool = False
    # a TF 1.x draw in `with tf.Graph().as_default():` while TF was seeded on the graph
    # outside: (that seed, the block)
    graph: Optional[tuple[At, At]] = None
    # the draw runs on the default run (not only on branches the default options skip)
    on_default: bool = True
    # the condition of a dispatch by a name no default decides that every way to the draw
    # rests on (``args.model == 'mae_vit_base'``): the program may reach it, not surely
    maybe: str = ""
    # the project calls (outermost first) through which the program first reached it
    chain: tuple[At, ...] = ()

    @property
    def library(self) -> str:
        return self.needs or self.draw.library


class HelperCall(NamedTuple):
    """A call of a project function that seeds libraries (transitively)."""

    path: str
    call: Call
    libraries: frozenset[str]


class UsageEvent(NamedTuple):
    path: str
    usage: Usage
    default: bool  # runs with the program's default options


U = TypeVar("U", bound=Usage)

if TYPE_CHECKING:  # a generic NamedTuple needs Python 3.11 (we support 3.10); type checkers see this one

    class UsageAt(NamedTuple, Generic[U]):
        position: int
        path: str
        usage: U

else:

    class UsageAt(NamedTuple):
        """A usage with its position among the program's usages (execution order);
        ``Program.of(FlagSet)`` yields them typed ``UsageAt[FlagSet]``."""

        position: int
        path: str
        usage: Usage

        def __class_getitem__(cls, item: Any) -> Any:
            return cls


class Role(str, enum.Enum):
    """What a program is for, from its name and what it does."""

    TRAINING = "training"
    EVALUATION = "evaluation"  # evaluation or inference: runs a model, trains none
    TEST = "test"
    DEMO = "demo"
    LIBRARY = "library"  # a module no program reaches, checked on its own


# Documentation folders (`docs/`, `doc/`, `docs_nnx/`): their programs are demos.
_DOCS_FOLDER = re.compile(r"(^|/)docs?(_[^/]*)?/")

_DEMO_NAME = re.compile(r"(^|[/_])demo[^/]*$")
_EVAL_NAME = re.compile(r"(^|[/_])(eval|evaluate|evaluation|infer|inference|predict|sample|generate|test)[^/]*$")


# What walks a module's children, and so may run any layer it holds (a `Sequential` of them).
_CHILD_WALKS = frozenset({"children", "named_children", "_modules", "get_submodule"})


# Global RNGs torch (>= 1.9) reseeds in each DataLoader worker from its base seed.
_WORKER_RESEEDED = frozenset({"random", "numpy"})


def _callee_name(call: Call) -> str:
    """The short name of what a project call targets (`models.Net` and `:Net`: `Net`)."""
    return call.target.rsplit(".", 1)[-1].lstrip(":")


class Program(CudaSelection):
    """One program's execution, the object every program-level rule queries."""

    def __init__(self, execution: Execution, facts: dict[str, ModuleFacts], library: bool = False) -> None:
        self.entry = execution.entry
        self.steps: list[Step] = execution.steps
        self.modules: list[str] = execution.modules
        self.rebound = execution.rebound
        self.call_bindings = execution.call_bindings
        self.ran_functions = execution.ran  # the bodies it runs at a call or for a framework
        self._chains = execution.call_chains
        self.is_library = library
        self.index: Optional[ProgramIndex] = None  # the scan's (set by analyse_programs)
        # Option defaults of every module the program runs (the first module to define
        # a name wins): conditions are evaluated with these final values, wherever
        # they are in the program.
        self.arg_defaults: dict[str, Any] = {}
        self.arg_entropy: dict[str, str] = {}
        self.option_flags: dict[str, str] = {}  # option dest -> the flag as a user types it
        for path in self.modules:
            for name, value in facts[path].arg_defaults.items():
                self.arg_defaults.setdefault(name, value)
            for name, flag in facts[path].option_flags.items():
                self.option_flags.setdefault(name, flag)
            for name, value in facts[path].arg_entropy.items():
                self.arg_entropy.setdefault(name, value)
        # an option the entry script fixes for itself once it is parsed (`opt.serial_batches
        # = True  # no shuffle` in an evaluation script), which no other module assigns; also
        # an attribute no option declares (`args.distributed = False` before the loaders are
        # built), which conditions read as they read options (lookup), messages never name
        fixed = {n: v for n, v in facts[self.entry].attr_constants.items() if v is not UNKNOWN} \
            if self.entry in facts else {}
        self.fixed_attrs: dict[str, Any] = {}
        if fixed:
            elsewhere = set().union(*(facts[p].assigned_attrs for p in self.modules if p != self.entry))
            for name, value in fixed.items():
                if name not in elsewhere:
                    (self.arg_defaults if name in self.arg_defaults else self.fixed_attrs)[name] = value
        self.config_origin: dict[str, str] = {}  # option default taken from a config file -> the file
        for path in self.modules:  # defaults set on a configuration object (`_C.SEED = -1`)
            for name in facts[path].config_attrs:
                if name not in self.option_flags:
                    self.config_origin.setdefault(name, path.rsplit("/", 1)[-1])
        # configuration files the modules load: their keys are option defaults too (an
        # option of the program keeps its own)
        for path in self.modules:
            if facts[path].config_sources:
                found = config_defaults(path, tuple(facts[path].config_sources), self.arg_defaults)
                for name, (value, origin) in found.items():
                    if name not in self.arg_defaults:
                        self.arg_defaults[name] = value
                        self.config_origin[name] = origin
        self._facts = facts
        self._role: Optional[Role] = None
        self._no_training: Optional[bool] = None  # _inference_only's program half
        self._looking_up: set[tuple[Any, ...]] = set()  # `("selfattr", ...)` trees lookup is resolving
        self.imported_elsewhere = False  # other project modules import the entry module
        self.tests_included = False  # `include-tests`: a test module is judged like any program
        self.is_test_entry = False  # the entry module is a test module (is_test_module)
        self.is_command = False  # a declared command's module (`[project.scripts]`)
        self.in_package = False  # the entry module is part of a package (`__init__.py` beside it)
        self.seeds: list[SeedOutcome] = []
        self.draws: list[DrawOutcome] = []
        self.helper_calls: list[HelperCall] = []
        # (path, span) of the seeding calls after which a draw of a library they seed runs
        self.seeds_drawn_after: set[tuple[str, Any]] = set()
        self.old_keras: Optional[str] = None  # the Keras of the past its draws follow (tf_versions.old_keras)
        self.events: list[UsageEvent] = []
        self.usage_steps: list[Step] = []
        self._positions: dict[type, list[int]] = {}  # usage class -> its places in events

    # ---------------------------------------------------------------- building
    def _collect(self, model: ExecutionModel) -> None:
        # a program that calls the TF 1 API, or declares TF 1 or a multi-backend Keras, runs
        # a Keras of the past (catalog.rng.old_keras_library); the declarations are read
        # only for a program that uses TensorFlow or Keras
        tf1 = any(type(s.event) is TfApi and s.event.tf1 and not s.event.old_keras for s in self.steps)
        multi_backend = any(type(s.event) is TfApi and s.event.old_keras for s in self.steps) \
            or (self.uses("keras") and keras_backend(self) == "theano")  # Keras on Theano: multi-backend Keras
        if tf1 or self.uses("tensorflow") or self.uses("keras"):
            self.old_keras = old_keras(tf1, self.entry, model.index.roots, multi_backend)
        seeded: dict[str, At] = {}
        first_seed_runs: dict[str, bool] = {}  # library -> its first seed runs on the default run
        awaiting: dict[str, list[tuple[str, Any]]] = {}  # library -> seeds no draw of it followed yet
        status: dict[tuple[str, Any], tuple[str, Draw, bool]] = {}
        in_worker: set[tuple[str, Any]] = set()
        graphs: list[Optional[At]] = []  # TF's seed outside each open `with tf.Graph().as_default():`
        graph_at: list[At] = []  # where each of those blocks starts
        # draws in a new graph while TF was seeded outside it: (that seed, the block)
        in_graph: dict[tuple[str, Any], tuple[At, At]] = {}
        # TF draws of each open graph built before it was seeded, and that late seed (the
        # graph's seed goes when the block ends, but it is the seed the draw missed)
        unseeded_in_graph: list[list[tuple[str, Any]]] = []
        late_in_graph: dict[tuple[str, Any], At] = {}
        on_default: set[tuple[str, Any]] = set()
        surely: set[tuple[str, Any]] = set()  # on the default run however a dispatch picks
        maybe: dict[tuple[str, Any], str] = {}  # only where a dispatch no default decides picks it
        scopes: list[dict[str, At]] = []  # what was seeded before each open SeedScope
        scoped_seeds: set[str] = set()  # libraries a SeedScope's function seeds
        for step in self.steps:
            event = step.event
            if type(event) is SeedScope:
                if event.begin:
                    scopes.append(dict(seeded))
                elif scopes:
                    seeded = scopes.pop()  # its seeds end with it
            if isinstance(event, GraphScope):
                if event.begin:
                    graphs.append(seeded.pop("tensorflow", None))
                    graph_at.append(At(step.path, event))
                    unseeded_in_graph.append([])
                elif graphs:
                    graph_at.pop()
                    unseeded_in_graph.pop()
                    outer = graphs.pop()
                    if outer is not None:
                        seeded["tensorflow"] = outer
                    else:
                        seeded.pop("tensorflow", None)
            if isinstance(event, Usage):
                self._positions.setdefault(type(event), []).append(len(self.events))
                self.events.append(UsageEvent(step.path, event, self.on_default_path(step)))
                self.usage_steps.append(step)
            elif isinstance(event, Seed):
                if scopes:
                    # a seed of a function only passed on: for its own draws (SeedScope)
                    for lib in event.libs:
                        seeded.setdefault(lib, At(step.path, event))
                        scoped_seeds.add(lib)
                    continue
                self.seeds.append(SeedOutcome(event, step.path, *self._seed_blame(step), step.via))
                for lib in event.libs:
                    if lib not in seeded:
                        first_seed_runs[lib] = self.on_default_path(step)
                    seeded.setdefault(lib, At(step.path, event))
                    awaiting.setdefault(lib, []).append((step.path, event.span))
                if "tensorflow" in event.libs and unseeded_in_graph:
                    for key in unseeded_in_graph[-1]:
                        late_in_graph.setdefault(key, At(step.path, event))
            elif isinstance(event, Draw):
                library = old_keras_library(self.old_keras, event.api, event.library)
                if library != event.library:
                    event = replace(event, library=library)
                self.seeds_drawn_after.update(awaiting.pop(event.library, ()))
                key = (step.path, event.span)
                if event.library in _WORKER_RESEEDED and (
                    step.context.in_worker or (event.deferred and event.api.startswith("torchvision."))
                ):
                    # In a worker: code a Dataset runs, or a torchvision transform,
                    # which draws when the dataset applies it.
                    in_worker.add(key)
                if self.on_default_path(step):
                    on_default.add(key)
                    if key not in surely:
                        text = self.undecided(step)
                        if text:
                            maybe.setdefault(key, text)
                        else:
                            surely.add(key)
                            maybe.pop(key, None)
                previous = status.get(key)
                if previous is None or previous[2]:
                    status[key] = (step.path, event, event.library in seeded)
                    if event.library == "tensorflow" and graphs and "tensorflow" not in seeded:
                        unseeded_in_graph[-1].append(key)
                        if graphs[-1] is not None:
                            in_graph[key] = (graphs[-1], graph_at[-1])
            elif isinstance(event, Call):
                resolved = model.index.resolve_call(step.path, event.target)
                libs = model.function_seeds(*resolved) if resolved is not None else frozenset()
                if libs:
                    self.helper_calls.append(HelperCall(step.path, event, libs))
        workers = bool(in_worker) and self._loader_workers()
        for key, (path, draw, seeded_before) in status.items():
            later, needs, worker, graph = None, draw.library, False, None
            if workers and key in in_worker:
                # Workers start when the loader is iterated: torch's seed anywhere in
                # the program reaches them (also one in a function only passed on, which
                # is where such programs train: `multi_proc_run(fun=train_model)`).
                seeded_before, needs, worker = "torch" in seeded or "torch" in scoped_seeds, "torch", True
            elif key in late_in_graph and not seeded_before:
                later = late_in_graph[key]  # its own graph was seeded, after the draw
            elif key in in_graph and not seeded_before:
                graph = in_graph[key]  # seeded before, but on the graph the block left: not a late seed
            elif not seeded_before and first_seed_runs.get(draw.library, True):
                # (a seed the default run skips, `if opt.model != "hd": UIModel()`, comes
                # later for no default run: the draw is never seeded there, RPL104 says why)
                later = seeded.get(draw.library)
            self.draws.append(DrawOutcome(
                draw, path, seeded_before, later, needs, worker, graph=graph, on_default=key in on_default,
                maybe=maybe.get(key, ""), chain=self._chains.get(key, ()),
            ))

    def _loader_workers(self) -> bool:
        """Whether a DataLoader of the program runs worker processes with the default
        options (``num_workers`` above 0, or not known)."""
        for _, _, usage in self.of(LoaderBuilt, default_only=False):
            value = self.lookup(usage.workers_ref.name) if usage.workers_ref is not None else usage.num_workers
            if value == UNKNOWN or value is None or (isinstance(value, int) and value > 0):
                return True
        return False

    def _seed_blame(self, step: Step) -> tuple[bool, Optional[Blame]]:
        for guarded in step.conds:
            cond = guarded.cond
            # each condition sees what its own function's call passes
            value = evaluate(cond.tree, self.lookup, True, guarded.bindings)
            if value is not None and value != cond.polarity:
                condition = cond.text if cond.polarity else f"not ({cond.text})"
                return False, Blame(guarded.path, guarded.span, guarded.text, condition,
                                    options_read(cond.tree, guarded.bindings))
        return True, None

    def on_default_path(self, step: Step, params: bool = True, surely: bool = False) -> bool:
        """Whether a step runs with the program's default options (``params=False``:
        only options and constants decide, not the defaults of function parameters;
        ``surely``: not only in a candidate that a name no default decides may pick)."""
        lookup = self.lookup
        for guarded in step.outer:
            value = evaluate(guarded.cond.tree, lookup, params, self._sure(guarded.bindings), surely)
            if value is not None and value != guarded.cond.polarity:
                return False
        for cond in step.own_conds():
            value = evaluate(cond.tree, lookup, params, self._sure(step.context.bindings), surely)
            if value is not None and value != cond.polarity:
                return False
        return True

    def undecided(self, step: Step) -> str:
        """The text of a condition on the way to ``step`` that only a dispatch by a name no
        default decides makes true (``args.model == 'mae_vit_base'``), or "" when the
        default run reaches the step however such a dispatch picks."""
        lookup = self.lookup
        for guarded in step.conds:
            cond, bindings = guarded.cond, self._sure(guarded.bindings)
            if evaluate(cond.tree, lookup, True, bindings) is None and \
                    evaluate(cond.tree, lookup, True, bindings, True) not in (None, cond.polarity):
                return cond.text
        return ""

    def keeps_defaults(self, step: Step, names: Iterable[str]) -> bool:
        """Whether each parameter in ``names`` holds its default (or a literal) in the body
        ``step`` is in: the call that ran the body left it out or passed a constant, and no
        other call of it passes other arguments."""
        bindings = self._sure(step.context.bindings)
        if not bindings or bindings[-1][0] != DEFAULTS:
            return False
        passed = dict(bindings[:-1])
        return all(name not in passed or (passed[name][0] == "const" and len(passed[name]) < 4) for name in names)

    def _sure(self, bindings: tuple[tuple[str, Any], ...]) -> tuple[tuple[str, Any], ...]:
        """A body's bindings, less the defaults of what its first call left out when
        another call of it passes other arguments (``Execution.rebound``), nor what it
        knew of a value the first call passed (not None: SOME_VALUE), which another call
        may pass as None."""
        if not (self.rebound and id(bindings) in self.rebound):
            return bindings
        return tuple((name, ("unknown",) if tree == SOME_VALUE else tree) for name, tree in bindings[:-1])

    def skips(self, position: int) -> bool:
        """Whether the usage at ``position`` is on a branch the default run skips: false
        with the defaults of options, module constants and parameters, and false without
        the parameters' defaults too (a caller may pass another value, so a parameter's
        default alone does not decide). A step in a candidate that only a name no default
        decides picks (``models.__dict__[name]``, analysis/dispatch.py) may run, but is not
        what the default run surely runs: skipped too. A library module has no default run."""
        if self.is_library:
            return False
        step = self.usage_steps[position]
        if self.events[position].default:
            return not self.on_default_path(step, surely=True)
        return not self.on_default_path(step, params=False)

    # ---------------------------------------------------------------- identity
    @property
    def program(self) -> Optional["Program"]:
        """This program, or None for a library module checked on its own."""
        return None if self.is_library else self

    @property
    def entry_points(self) -> tuple[str, ...]:
        """The entry point, as findings list it (none for a library module)."""
        return () if self.is_library else (self.entry,)

    @property
    def role(self) -> Role:
        """What the program is for (reported in JSON per entry point):

        * test: a test module (``tests/``, ``test_*.py``, ``*_test.py``, one importing
          pytest/unittest/absltest), not a program unless ``include-tests`` (then it is
          judged like any other program);
        * training: it trains (``backward``, an optimizer step, ``fit``, a Trainer);
        * evaluation: trains nothing and is named like one (eval, infer, predict,
          sample, generate...), loads a checkpoint or runs under ``no_grad``; or a
          benchmark that times forward/backward passes and updates no parameter;
        * demo: named ``demo*``, in a documentation folder (``docs/``), a module whose
          ``__main__`` block only builds, asserts and prints shapes (a model file's
          self-test; its other top-level code only imports, defines and assigns), a benchmark that
          trains and evaluates nothing (it times code: ``timeit``, a timing CUDA event), or the ``__main__`` block of a module of a package or
          one other project modules import (not the module of a declared command) (a library module's smoke demo) that
          trains nothing (or runs one training step in its own top-level code: a
          backward pass without an optimizer, or no backward pass in a loop) and is no
          evaluation;
        * otherwise training: the rules' default when nothing says;
        * library: a module no program reaches, checked on its own.
        """
        if self._role is None:
            self._role = self._decide_role()
        return self._role

    def _decide_role(self) -> Role:
        if self.is_library:
            return Role.LIBRARY
        path = PurePosixPath(self.entry)
        if not self.tests_included and self.is_test_entry:
            return Role.TEST
        if _DEMO_NAME.search(path.stem) or _DOCS_FOLDER.search(str(path)):
            return Role.DEMO
        # a declared command is what users run, never a library module's smoke demo
        packaged = (self.imported_elsewhere or self.in_package) and not self.is_command
        if self._trains_for_role():
            if packaged and self._smoke_step():
                return Role.DEMO
            if self.benchmarks:
                return Role.EVALUATION
            return Role.TRAINING
        named_or_no_grad = _EVAL_NAME.search(path.stem) is not None or any(s.context.no_grad for s in self.usage_steps)
        evaluates = named_or_no_grad or self.loads_checkpoint
        if packaged and not (named_or_no_grad or self._loads_checkpoint_itself()):
            # a library module's smoke demo: a model it builds may load pretrained
            # weights in its constructor (`ResNet101(pretrained=True)`), which makes
            # the demo no evaluation script
            return Role.DEMO
        if not evaluates and self.has(TimedCode, default_only=False):
            # trains nothing, evaluates nothing and times code: a benchmark, whose
            # results are its timings (random inputs reach none)
            return Role.DEMO
        if self.self_test:
            # no value drawn changes what a self-test prints, also where the model it
            # builds loads pretrained weights
            return Role.DEMO
        # Nothing says: count it as training (the rules' default).
        return Role.EVALUATION if evaluates else Role.TRAINING

    @property
    def self_test(self) -> bool:
        """The program is a model file's self-test: its ``__main__`` block only builds,
        asserts and prints shapes (analysis/self_tests.py), and its file is not named as
        an evaluation or a test (then it is judged as one)."""
        return self._facts[self.entry].main_self_test and _EVAL_NAME.search(PurePosixPath(self.entry).stem) is None

    @property
    def trains_anything(self) -> bool:
        """A training step of any framework runs with the default options (``backward``,
        an optimizer step, ``fit``, a framework trainer), as the role sees it: a program
        whose role is training only because nothing says otherwise (a script that builds
        a model and prints its summary, a hub entry's smoke run) trains nothing, nor does
        one whose only training step is behind an option that is off by default
        (``--profile``)."""
        return self._trains_for_role(default_only=True)

    def _trains_for_role(self, default_only: bool = False) -> bool:
        """Trains, as the role sees it: in a program that loads a checkpoint, training
        code only in bodies of imported modules that a framework calls (an unused
        `configure_optimizers`) does not count; the entry module's own (a worker passed
        to `spawn` that resumes from a checkpoint) does, and so does a training loop (a
        backward pass written in a loop) of a class the program builds: fine-tuning
        loads pretrained weights, then runs the loop through a call the analysis did not
        resolve. ``default_only``: only steps on the default path count."""
        if self.framework_trainer:
            return True
        for step in self._training_steps():
            looped = step.event.in_loop and not step.event.builds_optimizer  # type: ignore[union-attr]
            if step.context.phase is Phase.CALL or step.path == self.entry or not self.loads_checkpoint or looped:
                if not default_only or self.on_default_path(step):
                    return True
        return False

    def _training_steps(self) -> Iterator[Step]:
        """The training steps that run, not counting gradients taken of inputs only
        (``torch.autograd.grad`` in classifier guidance or an attack updates no weight)."""
        for step in self.usage_steps:
            usage = step.event
            if type(usage) is TrainStep and not step.context.uncalled and not usage.input_gradients:
                yield step

    def _smoke_step(self) -> bool:
        """A library module's ``__main__`` demo that runs one training step to check
        shapes: no framework trainer runs the loop, every step is torch's, written in
        the entry module's own top-level code, and either no optimizer is built
        (``model(x).sum().backward()``) or no backward pass is inside a loop (one
        ``opt.step()`` on random input)."""
        if self.framework_trainer:
            return False
        steps = list(self._training_steps())
        if not steps or any(
            s.path != self.entry or s.via is not None or s.context.phase is not Phase.CALL
            or s.event.name != "torch"  # type: ignore[union-attr]
            for s in steps
        ):
            return False
        updates = any(s.event.builds_optimizer for s in steps)  # type: ignore[union-attr]
        looped = any(s.event.in_loop for s in steps)  # type: ignore[union-attr]
        return not (updates and looped)

    def call_chain(self, path: str, span: Any) -> tuple[At, ...]:
        """The project calls (outermost first) through which the program first reached the
        draw, op call or framework setting at ``span`` of ``path``."""
        return self._chains.get((path, span), ())

    def _loads_checkpoint_itself(self) -> bool:
        """A checkpoint loaded by the entry module's own code outside its classes (not by
        a model's constructor or method: a `ResNet101(pretrained=True)` loading its
        weights)."""
        facts = self._facts[self.entry]
        in_methods = {
            id(event) for qualname, function in facts.functions.items()
            if qualname.partition(".")[0] in facts.classes for event in function.events
        }
        return any(
            path == self.entry and id(usage) not in in_methods
            for _, path, usage in self.of(CheckpointLoad, "torch", default_only=False)
        )

    @property
    def loads_checkpoint(self) -> bool:
        """The program loads trained weights (``load_state_dict``, ``torch.load``,
        ``from_pretrained``): in a program that trains nothing, they replace the
        randomly initialised ones."""
        return self.has(CheckpointLoad, "torch", default_only=False)

    @property
    def restores_tensorflow(self) -> bool:
        """The program restores trained TensorFlow/Keras weights (``saver.restore(sess,
        path)``, ``model.load_weights``, ``load_model``). Unlike a torch load it does not
        decide the program's role: only, in an evaluation program, that the initial
        weights it draws are replaced."""
        return self.has(CheckpointLoad, "tensorflow", default_only=False)

    def _built_then_loaded(self, outcome: "DrawOutcome") -> bool:
        """A weight drawn in a project class that the program builds only where the
        built model's parameters are all replaced at once (``net = Net()`` then
        ``net.load_state_dict(...)``, analysis/overwritten.py): the way the program first
        reaches the draw goes through such a construction, and no other call of that
        class in the program keeps its drawn weights (a second ``Net()`` trained from
        scratch)."""
        loaded = {_callee_name(at.event) for at in outcome.chain if type(at.event) is Call and at.event.overwritten}
        return bool(loaded) and not loaded & self._kept_built

    @functools.cached_property
    def _kept_built(self) -> frozenset[str]:
        """The names of the project callees some call of the program makes without a
        load replacing what they return (see ``_built_then_loaded``)."""
        return frozenset(
            _callee_name(step.event) for step in self.steps if type(step.event) is Call and not step.event.overwritten
        )

    def overwrites_init(self, outcome: "DrawOutcome") -> bool:
        """A weight-initialisation draw whose weights a checkpoint load replaces (or a
        dropout mask, off in a model put in eval mode): ``torch.hub.load`` of an entry
        that the project's own ``hubconf.py`` makes load trained weights by default
        (``def yolov5s(pretrained=True)``); an evaluation/inference program
        that loads trained weights, a program that trains nothing by default and restores
        its TensorFlow variables, or a torch model loaded from a checkpoint in a
        program that trains with another framework only (a JAX notebook comparing with
        the same checkpoint loaded into timm)."""
        entry = outcome.draw.hub_entry
        if entry and any(facts.hub_pretrained.get(entry) for facts in self._facts.values()):
            return True  # the project's hubconf.py entry loads trained weights by default
        if outcome.draw.kind == "init" and self._built_then_loaded(outcome):
            return True
        # TensorFlow/Keras variables a restore replaces (Keras of the past draws from NumPy)
        if outcome.draw.library in ("tensorflow", "keras", "numpy", "random"):
            if outcome.draw.kind in ("init", "dropout") and self.role is Role.EVALUATION and self.restores_tensorflow:
                return True  # a TF evaluation that restores its variables
            if outcome.draw.kind == "init" and not self.trains_anything and self.has(CheckpointLoad, "tensorflow"):
                # trains nothing with its default options and restores its variables on the
                # default run (`Graph(mode="eval")` whose optimizer only `mode == "train"`
                # builds, then `saver.restore(...)`): the drawn initial values are replaced
                return True
        if outcome.draw.kind not in ("init", "dropout") or not self.loads_checkpoint:
            return False
        if self.role is Role.EVALUATION:
            return True
        return (
            self.role is Role.TRAINING
            and outcome.draw.library == "torch"
            and not self.framework_trainer
            and not self.has(TrainStep, "torch", default_only=False)
        )

    @property
    def is_training(self) -> bool:
        """Rules for training programs (RPL301-RPL305) apply."""
        return self.role is Role.TRAINING

    @property
    def checks_randomness(self) -> bool:
        """RPL101/RPL105 apply: not to tests, demos or library modules."""
        return self.role in (Role.TRAINING, Role.EVALUATION)

    @property
    def seeded_libraries(self) -> set[str]:
        return {lib for outcome in self.seeds for lib in outcome.seed.libs}

    @functools.cached_property
    def seed_draws(self) -> set[tuple[str, Any]]:
        """(path, span) of the global-RNG draws whose value seeds a library, directly or
        through a project helper (RPL103 reports them, RPL101 leaves them)."""
        return {(o.path, o.seed.drawn_from) for o in self.seeds if o.seed.drawn_from is not None} | {
            (h.path, h.call.drawn_from) for h in self.helper_calls if h.call.drawn_from is not None}

    def unread_layer(self, path: str, usage: OpCall) -> bool:
        """A layer built straight into an attribute of ``self`` (``usage.layer``) in a class
        on library bases only that no project class derives from
        (:meth:`ProgramIndex.standalone_class`), an attribute no module of the program
        reads (``self.avgpool = nn.AdaptiveAvgPool2d((7, 7))`` with a ``forward`` that does
        not use it, then ``del model.avgpool``): the layer never runs. A read by name
        (``model.avgpool``, or ``self.avgpool`` in the class itself) runs it; a read in
        another class is of another object. A module that reads any attribute by a
        computed name (``getattr(self, f"layer{i}")``) or walks a module's children
        (``nn.Sequential(*model.children())`` runs them all) may run it."""
        if not usage.layer or self.index is None:
            return False
        cls, attr = usage.layer
        if not self.index.standalone_class(path, cls):
            return False  # a library base's `forward` may read it (torchvision's ResNet)
        readers = self._attr_readers
        if readers is None:
            return False
        found = readers.get(attr, ())
        return ("", "") not in found and (path, cls) not in found

    @functools.cached_property
    def _attr_readers(self) -> Optional[dict[str, set[tuple[str, str]]]]:
        """Attribute -> (module, class) of the reads by ``self`` in a class's methods, and
        ("", "") for a read of any object's (``model.avgpool``), in the program's modules;
        None where one reads attributes by a computed name or walks children."""
        readers: dict[str, set[tuple[str, str]]] = {}
        for module in self.modules:
            reads = self._facts[module].read_attrs
            if "*" in reads or not reads.isdisjoint(_CHILD_WALKS):
                return None
            for read in reads:
                reader, _, name = read.rpartition(".")
                readers.setdefault(name, set()).add((module, reader) if reader else ("", ""))
        return readers

    @functools.cached_property
    def assigned_attrs(self) -> set[str]:
        """Attributes some module of the program assigns: an option of that name may not
        keep its default (asked only by the rules about None defaults)."""
        return set().union(*(self._facts[path].assigned_attrs for path in self.modules))

    @functools.cached_property
    def shares_a_model(self) -> bool:
        """A module of the program hands one shared-memory model to worker processes
        (Hogwild, A3C: ``model.share_memory()`` and the model passed to each process; the
        facts :mod:`reprolint.analysis.calls.spawn` records as RPL405's)."""
        return any(f.code == "RPL405" for path in self.modules if path in self._facts for f in self._facts[path].findings)

    @functools.cached_property
    def assigned_keys(self) -> set[str]:
        """Keys some module of the program assigns (``params['seed'] = ...``): a value read
        by that key (``params['seed']``) may not be an option's default of that name."""
        return set().union(*(self._facts[path].assigned_keys for path in self.modules))

    def option_name(self, option: str) -> str:
        """How a message names an option: ```--seed``` (the flag a user passes), or
        ```seed` in `configs/train.yaml``` for a key of a configuration file."""
        origin = self.config_origin.get(option)
        if origin is not None:
            return f"`{option}` in `{origin}`"
        return "`" + self.option_flags.get(option, f"--{option}").removesuffix(" ...") + "`"

    # ---------------------------------------------------------------- usages
    def lookup(self, name: Union[str, tuple[Any, ...]]) -> Any:
        """An option's default; for a ``("selfattr", path, class, attr)`` tree (a test of
        ``self.attr`` in a method), what the constructor calls store there (self_attrs.py)."""
        if isinstance(name, tuple):
            _, path, cls, attr = name
            if attr == "training" and self._inference_only(path, cls):
                return False
            if name in self._looking_up:
                return UNKNOWN  # a class whose constructor calls pass its own `self.x` on
            calls = self.call_bindings.get((path, f"{cls}.__init__"))
            self._looking_up.add(name)
            try:
                return stored_value(self._facts.get(path), calls, cls, attr, self.lookup)
            finally:
                self._looking_up.discard(name)
        return self.fixed_attrs[name] if name in self.fixed_attrs else self.arg_defaults.get(name, UNKNOWN)

    def stored_attr(self, ref: tuple[Any, ...]) -> Any:
        """``self.mode`` read in a method (``("selfattr", path, class, attr)``): what the
        program's constructor calls pass for the parameter ``__init__`` stores there
        (:meth:`lookup`); unknown where ``__init__`` stores no parameter there (no option
        stands in for an op's argument)."""
        _, path, cls, attr = ref
        facts = self._facts.get(path)
        if facts is None or (cls, attr) not in facts.init_attrs:
            return UNKNOWN
        return self.lookup(ref)

    def _inference_only(self, path: str, cls: str) -> bool:
        """``self.training`` of a class (nn.Module's flag) is False all through this program: no
        training step of any framework runs anywhere in it (on any branch), and a module of
        it puts models in inference mode (``model.eval()``). Modules start in training mode,
        so a program that never calls ``eval()`` keeps it (dropout on, ``if self.training:``
        branches taken)."""
        if self._no_training is None:
            self._no_training = not any(
                type(s.event) in (TrainStep, LightningTrainer, HfTrainer) for s in self.steps
            ) and any(self._facts[p].eval_mode for p in self.modules)
        facts = self._facts.get(path)
        # nn.Module's flag, unless the class keeps an attribute of that name itself
        own = facts is not None and ((cls, "training") in facts.init_attrs or (cls, "training") in facts.reassigned_attrs)
        return self._no_training and not own

    def of(self, kind: type[U], name: Optional[str] = None, default_only: bool = True) -> Iterator[UsageAt[U]]:
        """(position, path, event) of the usages of one class (``name``: with that
        name), in execution order."""
        events = self.events
        for position in self._positions.get(kind, ()):
            path, usage, default = events[position]
            if name is not None and usage.name != name:
                continue
            if default_only and not default:
                continue
            yield UsageAt(position, path, cast(U, usage))  # the index holds `kind`'s places only

    def first(self, kind: type[U], name: Optional[str] = None, default_only: bool = True) -> Optional[UsageAt[U]]:
        return next(self.of(kind, name, default_only), None)

    def has(self, kind: type[Usage], name: Optional[str] = None, default_only: bool = True) -> bool:
        return self.first(kind, name, default_only) is not None

    def uses(self, library: str, facts: Optional[dict[str, ModuleFacts]] = None) -> bool:
        facts = facts if facts is not None else self._facts
        return any(library in facts[path].uses for path in self.modules)

    def value(self, usage: FlagSet) -> Optional[bool]:
        """A flag's value with the default options: True, False or None (unknown)."""
        if usage.ref is not None:
            value = self.lookup(usage.ref.name)
            if value == UNKNOWN:
                return None
            return (not value) if usage.ref.negated else bool(value)
        if usage.value == UNKNOWN:
            return None
        return usage.value is True or usage.value in ("warn", "error")

    def kw_value(self, usage: Union[LightningTrainer, HfTrainingArgs], key: str) -> Any:
        """A keyword's literal; an option or configuration key resolved (None: files omit it)."""
        value = usage.kw(key)
        if isinstance(value, ConfigKey) and value.name not in self.config_origin:
            return None if self.config_origin else UNKNOWN  # no file read: unknown
        return self.lookup(value.name) if isinstance(value, (OptionRef, ConfigKey)) else value

    # ---------------------------------------------------------------- questions
    @property
    def entry_event(self) -> Optional[At]:
        """The entry module's first statement (where program-level findings go)."""
        for path, usage, _ in self.events:
            if type(usage) is ModuleStart and path == self.entry:
                return At(path, usage)
        return None

    @property
    def trains(self) -> bool:
        """A torch training step runs with the default options (not in a benchmark that
        only times forward and backward passes)."""
        return self.has(TrainStep, "torch") and not self.benchmarks

    @property
    def benchmarks(self) -> bool:
        """A benchmark: it times code (``torch.cuda.Event(enable_timing=True)``,
        ``timeit``, ``torch.utils.benchmark``) and updates no parameter (backward passes
        only: no optimizer, ``zero_grad``, ``fit`` or Trainer, no TF/JAX training step)."""
        if not self.has(TimedCode, default_only=False) or self.framework_trainer:
            return False
        for step in self._training_steps():
            usage = cast(TrainStep, step.event)
            if usage.name != "torch" or usage.builds_optimizer or usage.text.endswith("zero_grad"):
                return False
        return True

    def trains_with(self, framework: str) -> bool:
        """A training step of ``framework`` runs with the default options, not counting
        plain functions of imported modules that no call reaches."""
        for step in self.usage_steps:
            usage = step.event
            if type(usage) is TrainStep and usage.name == framework and not step.context.uncalled:
                if self.on_default_path(step):
                    return True
        return False

    @property
    def framework_trainer(self) -> bool:
        """Lightning's or Hugging Face's Trainer runs the loop (RPL306 owns its flags)."""
        return self.has(LightningTrainer) or self.has(HfTrainer)

def _program(model: ExecutionModel, entry: str, library: bool = False) -> Program:
    program = Program(walk(model, entry, library), model.index.facts, library)
    program.index = model.index
    program.imported_elsewhere = entry in model.index.imported_by_others()
    program.tests_included = model.index.include_tests
    program.is_test_entry = model.index.is_test(entry)
    program.is_command = entry in model.entry_calls
    program.in_package = model.index.in_package(entry)
    program._collect(model)
    return program


def analyse_programs(index: ProgramIndex, entries: Iterable[str], model: Optional[ExecutionModel] = None) -> list[Program]:
    """The programs rooted at ``entries`` (``model``: a shared per-module memo)."""
    model = model or ExecutionModel(index)
    return [_program(model, entry) for entry in entries]


def library_programs(model: ExecutionModel, programs: list[Program]) -> list[Program]:
    """Every module no program reaches, walked as a program of its own (library code)."""
    reached = {path for p in programs for path in p.modules}
    out = []
    for path in sorted(model.index.facts):
        if not model.index.include_tests and model.index.is_test(path):
            continue  # tests are not programs, nor library code to check
        if path not in reached:
            out.append(_program(model, path, library=True))
            reached.update(out[-1].modules)
    return out
