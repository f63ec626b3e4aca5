"""The fact records of one module: plain frozen data (no CST nodes) that the fact pass of
:mod:`reprolint.analysis.facts` collects, that the cache stores and that
:mod:`reprolint.analysis.program` combines across files: the events of a module and of
its functions (seeds, draws, project calls, imports, the ``__main__`` guard, no-grad
regions, usage events) with the branch conditions on their way, and the findings that
need no program (:class:`LocalFinding`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Final, Iterable, Optional, Union

from reprolint.analysis.usage_events import Usage
from reprolint.model import Span

__all__ = [
    "PARAMETER_CALL",
    "Call",
    "Cond",
    "Draw",
    "Event",
    "FunctionFacts",
    "Guard",
    "Import",
    "InstanceCall",
    "LocalFinding",
    "ModuleFacts",
    "Region",
    "Seed",
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
    # The seeder takes None as "seed from OS entropy" (`random.seed`, `np.random.seed`),
    # and whether the seed given is a literal (a helper's parameter is not).
    entropy_if_none: bool = False
    literal_seed: bool = False
    # "lightning<2.2": the seeder takes None as entropy only before that version
    entropy_until: str = ""
    # the global-RNG draw the seed value was taken from (`random.randint(1, 10000)`)
    drawn_from: Optional[Span] = None
    # the seed is the value of this name as written (`np.random.seed(seed)`: "seed"), for
    # a helper whose parameter it is (what a call binds to it is the seed)
    seed_name: Optional[str] = None


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
    # `torch.hub.load(repo, "yolov5s")` without `pretrained=`: the entry, whose default the
    # project's own hubconf.py may say (Program.overwrites_init)
    hub_entry: str = ""


# The target of a call through a parameter of the function making it (`fn(args)`):
# "?" and the parameter's name, which no project name resolves to; the function the call
# that runs the body passes for it runs there (Call.functions, _Walker).
PARAMETER_CALL: Final = "?"


@dataclass(frozen=True)
class Call:
    """A call that may target a project function or class (resolved per program)."""

    target: str  # "pkg.mod.func", ".rel.func" (leading dots = level) or ":local.name"
    span: Span
    text: str
    entropy: Optional[str]
    entropy_ref: Optional[str]
    conds: tuple[Cond, ...] = ()
    # arguments the callee's conditions can use: (parameter or "#<place>", ("const",
    # value) or ("attr", option)) for `UNet(bilinear=args.bilinear)`, `set_seed(args.seed)`
    bindings: tuple[tuple[str, Any], ...] = ()
    # the unseeded global-RNG draw an argument holds (`set_seed(args.seed)` after
    # `args.seed = random.randint(1, 10000)`): a seeding helper then seeds at random
    drawn_from: Optional[Span] = None
    # what it returns is bound to a name whose `load_state_dict(...)` (not strict=False)
    # replaces every parameter later in the same body, surely (`model = Net().cuda()`,
    # then `model.load_state_dict(torch.load(path))`): the weights it draws never count
    overwritten: bool = False
    # the functions it passes by name, as (parameter or "#<place>", their call target):
    # `init_processes(0, size, main, args)` -> (("#2", "main"),), so the callee's
    # `fn(args)` runs `main` (PARAMETER_CALL)
    functions: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Import:
    module: str  # dotted; leading dots for relative imports
    optional: bool = False  # `from pkg import name`: `pkg.name` may be a submodule or not
    # `from module import a, b` outside any `try`: the names it takes from the module,
    # which raise ImportError where the module binds none of that name (_Walker)
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Guard:
    """Start or end of the ``if __name__ == "__main__":`` block."""

    begin: bool


@dataclass(frozen=True)
class Region:
    """Start or end of a ``with torch.no_grad():`` (or ``inference_mode``) block, or,
    with ``device`` set, of a ``with tf.device(...):`` block: ``"cpu"`` where it names a
    CPU, ``"other"`` for any other device (a GPU tower inside a CPU block)."""

    begin: bool
    device: Optional[str] = None


@dataclass(frozen=True)
class InstanceCall:
    """A call of a project ``nn.Module`` instance (``model(x, y)``, ``self.encoder(x)``):
    the framework runs the class's ``forward`` with these arguments. Only what it passes
    is kept (``bindings``, as a :class:`Call`'s): ``forward`` still runs where
    framework-called bodies run (analysis/execution.py), but what reaches its parameters
    (a batch without grad) is what these calls pass."""

    target: str  # the class's call target with ".forward" (resolved per program)
    span: Span
    bindings: tuple[tuple[str, Any], ...] = ()


Event = Union[Seed, Draw, Call, InstanceCall, Import, Guard, Region, Usage]  # Usage: RPL2xx-RPL4xx facts (usage_events.py)


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
    # the parameters a positional argument binds, in order (`self`/`cls` included)
    positional: tuple[str, ...] = ()
    # it builds what its first parameter's `target` (`_target_`) key names, as
    # `instantiate_from_config(config)` does (analysis/dispatch.py: instantiated)
    instantiates: bool = False
    decorated: bool = False  # a decorator may register or wrap it (`@app.command()`)
    # a registry's decorator registers it (`@register_model`, `@REGISTRY.register()`):
    # code the analysis does not see may call it by a key
    registers: bool = False


@dataclass
class ModuleFacts:
    path: str
    events: list[Event] = field(default_factory=list)
    functions: dict[str, FunctionFacts] = field(default_factory=dict)
    classes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # name -> base targets
    has_main_guard: bool = False
    # its `__main__` block only builds, asserts and prints shapes (analysis/self_tests.py)
    main_self_test: bool = False
    eval_mode: bool = False  # the module calls `<x>.eval()` (or `.train(False)`): a model in inference mode
    top_level_work: bool = False
    imported_modules: tuple[str, ...] = ()
    star_imports: tuple[str, ...] = ()  # `from <module> import *` (relative ones with their dots)
    # module-level `from <module> import name [as bound]`: bound -> "<module>.name" (relative
    # ones with their dots), the names a package's __init__ re-exports
    from_imports: dict[str, str] = field(default_factory=dict)
    # the identifiers the module's code uses other than in a `def` of that name (None: not
    # known), outside its top-level classes: a plain function no program module mentions
    # cannot be called or passed on; one read as an attribute is kept as `.name`
    mentioned: Optional[frozenset[str]] = None
    # the names its top-level code may bind (analysis/module_names.py); None: not all
    # written out (a star import, `__getattr__`, `globals()`...)
    bound_names: Optional[frozenset[str]] = None
    # the same for each top-level class's body (it runs only where the class is built),
    # each top-level function's (only where the function runs) and each module-level
    # table's value (`OPS = {"rotate": rotate, ...}`: a function stored there is called
    # only by code that reads the table)
    class_mentions: dict[str, frozenset[str]] = field(default_factory=dict)
    def_mentions: dict[str, frozenset[str]] = field(default_factory=dict)
    table_mentions: dict[str, frozenset[str]] = field(default_factory=dict)
    # each top-level class's own statements (outside its methods), and each of its
    # methods' bodies ("Class.method"): a name a method mentions is used only where that
    # method runs (a test script that builds the model runs no `build_train_graph`)
    class_level_mentions: dict[str, frozenset[str]] = field(default_factory=dict)
    method_mentions: dict[str, frozenset[str]] = field(default_factory=dict)
    findings: list[LocalFinding] = field(default_factory=list)
    arg_defaults: dict[str, Any] = field(default_factory=dict)  # argparse/click/fields
    arg_entropy: dict[str, str] = field(default_factory=dict)  # argparse defaults from entropy
    # attributes the module assigns (`opt.manualSeed = random.randint(...)`): an option of
    # that name may not keep its parser default
    assigned_attrs: set[str] = field(default_factory=set)
    # callee last name -> how the module calls it: (positional arguments, keywords,
    # with a `*`/`**` spread) (`G.random_walk(path_length, rand=rand)`: "random_walk" ->
    # (1, ("rand",), False)): whether every call passes a parameter (RPL102's defaults)
    call_shapes: dict[str, set[tuple[int, tuple[str, ...], bool]]] = field(default_factory=dict)
    # attribute names the module reads (`model.avgpool`, `getattr(m, "avgpool")`; read on
    # `self` in a class's method: `Class.avgpool`; "*": a name computed), not only assigns
    # or deletes (`self.avgpool = ...`, `del model.avgpool`): a layer stored in an
    # attribute no module of a program reads never runs there (Program.unread_layer)
    read_attrs: set[str] = field(default_factory=set)
    # keys the module assigns (`params['seed'] = int(args.seed)`): a seed read by that key
    # (`random.seed(params['seed'])`) may hold that value, not an option's None default
    assigned_keys: set[str] = field(default_factory=set)
    # attr -> the literal a single, unconditional top-level assignment gives it
    # (`opt.serial_batches = True` after parsing), UNKNOWN where the module assigns it
    # otherwise: the program whose entry this module is runs with that value
    attr_constants: dict[str, Any] = field(default_factory=dict)
    # the functions (qualnames) that call a function taken out of a list or a table
    # (`for op, lo, hi in ops: op(img, v)`, `OPS[name](img)`): the plain functions such a
    # table holds run where these do (Executor: an augmentation's ops in DataLoader workers)
    value_callers: set[str] = field(default_factory=set)
    # (class, attr) -> (parameter, its default, a text method or "") for `self.attr = param`
    # (`param.lower()`) written once at the top of the class's `__init__` (not in a
    # branch), and the (class, attr) assigned
    # anywhere else in the class: a branch test of `self.attr` in its methods reads what
    # the constructor's calls pass (analysis/self_attrs.py)
    init_attrs: dict[tuple[str, str], tuple[str, Any, str]] = field(default_factory=dict)
    reassigned_attrs: set[tuple[str, str]] = field(default_factory=set)
    # defaults set on a configuration object (`_C.SEED = -1`, OptionFacts.note_config_default)
    config_attrs: set[str] = field(default_factory=set)
    # where the module loads configuration from (analysis/config_files.py): a literal
    # path, "option:<dest>" (the option's default names it) or "hydra:<folder>/<name>"
    config_sources: list[str] = field(default_factory=list)
    # the module seeds a gym/gymnasium environment (`reset(seed=...)`, `env.seed(s)`)
    seeds_environments: bool = False
    # the module seeds an action space (`env.action_space.seed(s)`): gym's `env.seed(s)`
    # and gymnasium's `reset(seed=...)` leave the spaces' generators alone
    seeds_spaces: bool = False
    # option dest -> the flag a user passes (`--cuda`), for messages about non-default runs
    option_flags: dict[str, str] = field(default_factory=dict)
    option_spans: dict[str, Span] = field(default_factory=dict)  # option dest -> its add_argument(...)
    uses: frozenset[str] = frozenset()  # library roots imported (torch, numpy, ...)
    # "<function qualname>.<parameter>" of each parameter a function loops over, handling
    # each entry on its own, and otherwise only tests (RPL402: a listing handed to it whole)
    order_free_params: frozenset[str] = frozenset()
    # the non-CUDA accelerator stack the module imports unconditionally at its top level
    # (`import torch_npu`): it cannot be imported where that stack is missing, so its
    # torch ops run on that device, never on CUDA (analysis/calls/devices.py DEVICE_STACKS)
    device_only: Optional[str] = None
    # class qualname -> `self.<attr>` RNG instances its methods draw from (RPL403)
    class_rngs: dict[str, list[str]] = field(default_factory=dict)
    # module-level dicts of names to project callables (analysis/dispatch.py): name ->
    # ((key, call target), ...)
    tables: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    # the functions a command-line dispatcher runs as commands (call targets:
    # `jsonargparse.CLI({...})`, `fire.Fire(fn)`, `@cli.command()`; analysis/dispatch.py)
    commands: list[str] = field(default_factory=list)
    # names a registry decorator records -> the module-level function or class
    registered: dict[str, str] = field(default_factory=dict)
    # `def yolov5s(pretrained=True, ...)` at the top of a hubconf.py: entry -> the default
    # of its `pretrained` (torch.hub.load of that entry loads trained weights over the init)
    hub_pretrained: dict[str, bool] = field(default_factory=dict)
    # the project functions a DataLoader's `collate_fn=` names here, and those a
    # torchvision `transforms.Lambda(fn)` wraps (call targets): they run where the
    # samples are made (analysis/calls/loaders.py)
    collate_targets: list[str] = field(default_factory=list)
    # functions given to a TensorFlow dataset's `map`/`flat_map`/`filter`/`interleave`
    # (call targets): they run in the input pipeline, on the CPU, with no gradient
    pipeline_targets: list[str] = field(default_factory=list)
    # module-level names bound to a function or class of the module: name -> ":<its name>"
    aliases: dict[str, str] = field(default_factory=dict)


# a string or comment (skipped: a docstring naming a helper does not call it), or an
# identifier with the `def ` before it when it names a function, in one pass
_TOKEN = re.compile(
    r'(?s:""".*?"""' r"|'''.*?''')"
    r'|"(?:\\.|[^"\\\n])*"' r"|'(?:\\.|[^'\\\n])*'|#[^\n]*"
    r"|(\bdef\s+)?(\.[ \t]*)?([A-Za-z_][A-Za-z0-9_]*)"
)


# a top-level class or function statement, or a module-level table: a name bound to a
# dict or list display, a `dict(...)` call or another name's attribute (an alias: `vq =
# VectorQuantization.apply`) (its body or value runs to the next line at column 0 that
# is code)
_BLOCK_LINE = re.compile(
    r"^(?:(class|def|async\s+def)\s+([A-Za-z_][A-Za-z0-9_]*)"
    r"|([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?::[^\n=]*)?=[ \t]*"
    r"(?=[\[{]|dict\(|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+[ \t]*(?:#[^\n]*)?$))",
    re.MULTILINE,
)
_TOP_LINE = re.compile(r"^[^\s#@)\]}]", re.MULTILINE)

Mentions = dict[str, frozenset[str]]


def mentioned_names(source: str) -> tuple[frozenset[str], Mentions, Mentions, Mentions]:
    """The identifiers ``source``'s code uses, other than as the name of a ``def``: in
    the module's own statements, in each top-level class, in each top-level function and
    in the value of each module-level table (``OPS = {"rotate": rotate}``) or alias
    (``vq = VectorQuantization.apply``)."""
    rest: list[str] = []
    classes: Mentions = {}
    functions: Mentions = {}
    tables: Mentions = {}
    at = 0
    for match in _BLOCK_LINE.finditer(source):
        if match.start() < at:
            continue  # (a `class` line inside a string of the block before)
        rest.append(source[at:match.start()])
        end = _TOP_LINE.search(source, match.end())
        stop = end.start() if end is not None else len(source)
        if match.group(3) is not None:
            held, name = tables, match.group(3)
        else:
            held, name = (classes if match.group(1) == "class" else functions), match.group(2)
        held[name] = held.get(name, frozenset()) | _names(source[match.end():stop])
        at = stop
    rest.append(source[at:])
    return _names("".join(rest)), classes, functions, tables


_METHOD_LINE = re.compile(r"^([ \t]+)(?:async[ \t]+)?def[ \t]+([A-Za-z_][A-Za-z0-9_]*)", re.MULTILINE)
_CODE_LINE = re.compile(r"^([ \t]*)[^\s#]", re.MULTILINE)


def method_mentions(source: str, classes: Iterable[str]) -> tuple[Mentions, Mentions]:
    """For each top-level class of ``classes``: the identifiers its statements outside
    its methods use, and those each of its direct methods' bodies use ("Class.method"),
    as :func:`mentioned_names` reads them. A method ends at the next code line indented
    no deeper than its ``def`` (outside a triple-quoted string)."""
    own: Mentions = {}
    methods: Mentions = {}
    wanted = set(classes)
    for match in _BLOCK_LINE.finditer(source):
        if match.group(1) != "class" or match.group(2) not in wanted or match.group(2) in own:
            continue
        cls = match.group(2)
        end = _TOP_LINE.search(source, match.end())
        body = source[match.end():end.start() if end is not None else len(source)]
        starts = list(_METHOD_LINE.finditer(body))
        if not starts:
            own[cls] = _names(body)
            continue
        indent = min(len(m.group(1)) for m in starts)
        level = [m for m in starts if len(m.group(1)) == indent]
        rest: list[str] = []
        at = 0
        for index, start in enumerate(level):
            if start.start() < at:
                continue
            rest.append(body[at:start.start()])
            stop = len(body)
            for line in _CODE_LINE.finditer(body, start.end()):
                if len(line.group(1)) <= indent and not _in_string(body, start.end(), line.start()):
                    stop = line.start()
                    break
            name = f"{cls}.{start.group(2)}"
            methods[name] = methods.get(name, frozenset()) | _names(body[start.end():stop])
            at = stop
        rest.append(body[at:])
        own[cls] = _names("".join(rest))
    return own, methods


def _in_string(text: str, start: int, at: int) -> bool:
    """Whether position ``at`` is inside a triple-quoted string opened after ``start``."""
    part = text[start:at]
    return part.count('"""') % 2 == 1 or part.count("\'\'\'") % 2 == 1


# an import statement (one line, lines joined by a backslash, or a parenthesised list):
# it binds names, it uses none
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+[\w.]+[ \t]+import[ \t]*\([^)]*\)"
    r"|(?:from[ \t]+[\w.]+[ \t]+)?import[ \t](?:[^\n]*\\\n)*[^\n]*)",
    re.MULTILINE,
)


def _names(text: str) -> frozenset[str]:
    """The identifiers ``text`` uses; one read as an attribute (``tf.train``,
    ``model.train()``) is kept as ``.train``: it names a module's function only from
    another module (``facenet.train(...)``), never in the module that defines it."""
    text = _IMPORT.sub("", text)
    return frozenset(
        "." + name if dot else name for defined, dot, name in _TOKEN.findall(text) if name and not defined
    )
