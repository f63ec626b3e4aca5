"""Spawned worker processes: seeds set in the parent do not reach them.

``torch.multiprocessing.spawn(fn, ...)`` (and ``start_processes``, whose start method is
``"spawn"``), and ``multiprocessing.Process(target=fn)`` once the module asked for the
``spawn``/``forkserver`` start method, run ``fn`` in a fresh interpreter: it re-imports
the program and starts with every global RNG (``random``, NumPy, torch) seeded from OS
entropy, and with torch's determinism flags at their defaults. A program that seeds in
the parent and then spawns its training workers (``main()`` seeds, ``mp.spawn(
main_worker, ...)``, as the ImageNet-style launchers do) trains unseeded.

These are RPL101 facts (a draw from a global RNG on a path where, in its own process,
the library is never seeded), recorded at the spawn when, in one module:

* the spawning function (or the module's ``__main__`` block before it) runs a seeding
  call before the spawn (a seed at the module's top level, outside that block, runs
  again in every child, which re-imports the module);
* the worker is a function of the same module that draws or trains (a catalogued draw,
  a backward pass, an optimizer);
* the worker seeds nothing itself (no seeding call, no call of a ``*seed*`` helper).

A spawn or ``Process`` outside any condition is also a call of its worker (a ``Call``
fact at the spawn): the worker's body runs there in program order, so a seed it makes
itself counts for its own draws. Under a condition it stays a function run later
(``if args.distributed: mp.spawn(main_worker) else: main_worker(...)``: a body runs
once, and the direct call must keep it on the default path).

Lock-free shared-model training (Hogwild) is recorded here too, as RPL405 facts: a
model made shared with ``model.share_memory()`` and passed to several worker processes
(``Process(target=train, args=(..., model, ...))`` in a loop or a comprehension, or
twice; ``spawn(train, args=(model,), nprocs=n)`` with ``n`` not 1; ``pool.starmap(train,
[(model, i) ...])`` and the other map methods, or ``apply_async`` in a loop, of a
``Pool`` of more than one process) in the same function.
Whether the worker trains (and so updates the shared weights) is decided by the rule,
which can follow the worker into other modules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

import libcst as cst

from reprolint.analysis.cst_helpers import children as _children
from reprolint.analysis.cst_helpers import literal as _literal
from reprolint.analysis.usage_events import CudaWork, CudnnLayer, FlagSet, TrainStep, Usage

SPAWNS = frozenset({
    "torch.multiprocessing.spawn", "torch.multiprocessing.start_processes",
    "torch.multiprocessing.spawn.spawn",
})
PROCESSES = frozenset({"multiprocessing.Process", "torch.multiprocessing.Process"})
START_METHODS = frozenset({"multiprocessing.set_start_method", "torch.multiprocessing.set_start_method"})
POOLS = frozenset({"multiprocessing.Pool", "torch.multiprocessing.Pool", "multiprocessing.pool.Pool"})
# Pool methods that run the function on many items (several workers at once) or on one
_POOL_MAPS = frozenset({"map", "map_async", "starmap", "starmap_async", "imap", "imap_unordered"})
_POOL_APPLIES = frozenset({"apply", "apply_async"})


@dataclass
class SpawnSite:
    node: cst.Call
    call: str  # the callee as written
    worker: Optional[str]  # the worker function's name (None: not a plain name)
    seeds: list[Any]  # Seed events that ran before the spawn (module, then the function)
    scope: Any = None  # the collector's scope the call is written in
    target: Optional[str] = None  # where the worker call goes (``call_target``)
    passed: frozenset[str] = frozenset()  # names passed to the worker (``args=``/``kwargs=``)
    several: bool = False  # ``spawn(..., nprocs=n)`` with n not known to be 1
    pool: Optional[str] = None  # ``pool.starmap(fn, ...)``: the name the pool is bound to
    flags: list[Any] = field(default_factory=list)  # determinism flag usages only the parent runs
    child_flags: frozenset[str] = frozenset()  # flags set at the top level (rerun by each child)


@dataclass
class SharedModel:
    """``model.share_memory()``: the weights live in shared memory for worker processes."""

    node: cst.Call
    name: str
    scope: Any


@dataclass
class SpawnCalls:
    sites: list[SpawnSite] = field(default_factory=list)
    processes: list[SpawnSite] = field(default_factory=list)  # Process(target=...): spawn only if asked
    spawn_method: bool = False  # set_start_method("spawn"/"forkserver") somewhere in the module
    shared: list[SharedModel] = field(default_factory=list)
    pools: dict[int, bool] = field(default_factory=dict)  # id(Pool(...) call) -> more than one process
    pool_sites: list[SpawnSite] = field(default_factory=list)  # pool.map/starmap/apply...(fn, ...)
    # function qualname -> the `torch.cuda.manual_seed(...)` text it calls: seeds CUDA's
    # generators only, not the CPU's that draws the weights
    cuda_seeds: dict[str, str] = field(default_factory=dict)


# Seeding calls for CUDA's generators alone.
_CUDA_SEEDS = frozenset({"torch.cuda.manual_seed", "torch.cuda.manual_seed_all", "torch.cuda.random.manual_seed",
                         "torch.cuda.random.manual_seed_all"})


def _worker(node: Optional[cst.BaseExpression]) -> Optional[str]:
    return node.value if isinstance(node, cst.Name) else None


def _argument(node: cst.Call, keyword: str, position: Optional[int]) -> Optional[cst.BaseExpression]:
    for i, arg in enumerate(node.args):
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
        if arg.keyword is None and not arg.star and i == position:
            return arg.value
    return None


def _names_in(node: cst.CSTNode) -> set[str]:
    """Every plain name inside an expression (``[(model, i) for i in range(n)]``)."""
    if isinstance(node, cst.Name):
        return {node.value}
    found: set[str] = set()
    for child in _children(node):
        found |= _names_in(child)
    return found


def _passed_names(*values: Optional[cst.BaseExpression]) -> frozenset[str]:
    """The plain names among the elements of ``args=(...)`` and the values of ``kwargs={...}``."""
    names: set[str] = set()
    for value in values:
        if isinstance(value, (cst.Tuple, cst.List)):
            names.update(e.value.value for e in value.elements if isinstance(e.value, cst.Name))
        elif isinstance(value, cst.Dict):
            names.update(
                e.value.value for e in value.elements
                if isinstance(e, cst.DictElement) and isinstance(e.value, cst.Name)
            )
        elif isinstance(value, cst.Name):
            names.add(value.value)
    return frozenset(names)


def note_call(state: SpawnCalls, c: Any, node: cst.Call, qn: Optional[str]) -> None:
    """Record a spawn or a ``share_memory()`` (called from the fact collector's ``visit_Call``)."""
    from reprolint.analysis.facts import Call, Guard, Seed

    func = node.func
    if (
        qn is None and isinstance(func, cst.Attribute) and func.attr.value == "share_memory"
        and isinstance(func.value, cst.Name) and not node.args
    ):
        state.shared.append(SharedModel(node, func.value.value, c.scope))
        return
    if qn in _CUDA_SEEDS and c.scope.kind == "function":
        state.cuda_seeds.setdefault(c.scope.name.rstrip("."), c.text(node.func))
        return
    if qn in START_METHODS and node.args and _literal(node.args[0].value) in ("spawn", "forkserver"):
        state.spawn_method = True
        return
    if qn in POOLS:
        processes = _argument(node, "processes", 0)
        state.pools[id(node)] = processes is None or _literal(processes) != 1
        return
    # (`.map(fn, ...)` is everywhere: only after a `share_memory()` is it worth a look)
    if (
        state.shared and qn is None and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
        and func.attr.value in _POOL_MAPS | _POOL_APPLIES and node.args and node.args[0].keyword is None
    ):
        given = [a.value for a in node.args[1:]]
        state.pool_sites.append(SpawnSite(
            node, c.text(node.func), _worker(node.args[0].value), [], scope=c.scope,
            target=c.call_target(node.args[0].value),
            passed=frozenset(n for value in given for n in _names_in(value)),
            several=func.attr.value in _POOL_MAPS, pool=func.value.value,
        ))
        return
    several = False
    if qn in SPAWNS:
        worker_node = _argument(node, "fn", 0)
        passed = _passed_names(_argument(node, "args", 1))
        nprocs = _argument(node, "nprocs", 2)
        several = nprocs is not None and _literal(nprocs) != 1
        sites = state.sites
    elif qn in PROCESSES:
        worker_node = _argument(node, "target", 1)
        passed = _passed_names(_argument(node, "args", 3), _argument(node, "kwargs", 4))
        sites = state.processes
    else:
        return
    if worker_node is None:
        return
    # A spawned child re-imports the main module (as `__mp_main__`): its top-level code
    # runs again there, only the `if __name__ == "__main__":` block does not. Seeds
    # outside that block reach the worker; those inside it, or in the spawning
    # function, stay in the parent.
    seeds, flags, child_flags, guarded = [], [], set(), False
    for event in c.scopes[0].events:
        if isinstance(event, Guard):
            guarded = event.begin
        elif guarded and isinstance(event, Seed):
            seeds.append(event)
        elif _determinism_flag(event):
            (flags.append(event) if guarded else child_flags.add(event.name))
    if c.scope is not c.scopes[0]:
        seeds += [e for e in c.scope.events if isinstance(e, Seed)]
        flags += [e for e in c.scope.events if _determinism_flag(e)]
    target = c.call_target(worker_node)
    sites.append(SpawnSite(
        node, c.text(node.func), _worker(worker_node), seeds, scope=c.scope,
        target=target, passed=passed, several=several, flags=flags, child_flags=frozenset(child_flags),
    ))
    conds = c.current_conds()
    if target is not None and (not conds or not _called_elsewhere(c, worker_node, node)):
        # The worker runs here (in each process), not "later, if a framework calls it":
        # its own seeds count for its own draws, in order. Under a condition only where
        # nothing else in the function calls the worker (`if not args.evaluate: for rank
        # ...: Process(target=train)`, on the default path when the options make the
        # test true): a body runs once, and `if args.distributed: mp.spawn(main_worker)
        # else: main_worker()` must keep the unconditional-looking call on the default path.
        c.emit(Call(target, c.span(node), target.lstrip(":"), None, None, conds))


def _called_elsewhere(c: Any, worker: cst.BaseExpression, spawn: cst.Call) -> bool:
    """Whether the function (or module) that holds ``spawn`` calls ``worker`` directly,
    or hands it to another spawn or process."""
    text = c.text(worker)
    body = c.scope.body if c.scope.kind == "function" and c.scope.body is not None else c.module
    stack: list[cst.CSTNode] = [body]
    while stack:
        node = stack.pop()
        if type(node) is cst.Call and node is not spawn and (
            c.text(node.func) == text or any(c.text(a.value) == text for a in node.args)  # type: ignore[attr-defined]
        ):
            return True
        stack.extend(_children(node))
    return False


def findings(state: SpawnCalls, facts: Any) -> list[tuple[cst.Call, dict[str, Any]]]:
    """(spawn call, RPL101 data) for each spawn whose worker draws unseeded in its process."""
    from reprolint.analysis.facts import Call, Draw, Seed

    sites = state.sites + (state.processes if state.spawn_method else [])
    out: list[tuple[cst.Call, dict[str, Any]]] = []
    for site in sites:
        if not site.seeds or site.worker is None:
            continue
        worker = facts.functions.get(site.worker)
        if worker is None:
            continue
        events = worker.events
        if any(isinstance(e, Seed) for e in events):
            continue
        if any(isinstance(e, Call) and "seed" in e.text.lower() for e in events):
            continue  # a helper seeds in the worker (resolved or not)
        draws = [e for e in events if isinstance(e, Draw)]
        trains = any(isinstance(e, TrainStep) for e in events)
        if not draws and not trains:
            continue
        seed = site.seeds[-1]
        # the libraries the worker draws from (torch where it only trains: its weights),
        # those the parent seeds first: what the parent's seeding was meant to cover
        drawn = {e.library for e in draws} or {"torch"}
        seeded = {lib for s in site.seeds for lib in s.libs}
        libraries = sorted(drawn & seeded or drawn)
        unseeded = f"{', '.join(libraries)} never seeded there"
        cuda = state.cuda_seeds.get(site.worker)
        if cuda is not None and "torch" in libraries:
            # `torch.cuda.manual_seed(h.seed)` in the worker: torch is seeded there, but not
            # the CPU generator that draws the weights and the loaders' base seeds
            named = ", ".join([*(lib for lib in libraries if lib != "torch"), "torch's CPU generator"])
            unseeded = f"{named} never seeded there: `{cuda}` seeds only CUDA's generators"
        out.append((site.node, {
            "variant": "spawn", "call": site.call, "worker": site.worker,
            "seed_call": seed.text, "seed_span": seed.span, "libraries": ", ".join(libraries),
            "unseeded": unseeded,
            "library": draws[0].library if draws else "torch",
        }))
    return out


# The determinism switches a spawned child starts without, with the rule that reports
# a program training without them and how the message names the parent's setting.
_FLAGS = {
    "torch.deterministic": ("RPL301", "torch.use_deterministic_algorithms(True)"),
    "cudnn.deterministic": ("RPL302", "torch.backends.cudnn.deterministic = True"),
}


def _determinism_flag(event: Any) -> bool:
    # only a flag the parent sets whatever the options (`if args.seed is not None:
    # cudnn.deterministic = True` is the program-level rules' business)
    return (
        isinstance(event, FlagSet) and event.name in _FLAGS
        and event.value is True and not event.conds
    )


def flag_findings(state: SpawnCalls, facts: Any) -> list[tuple[cst.Call, str, dict[str, Any]]]:
    """(spawn call, RPL301/RPL302, data) for each spawn whose worker trains on CUDA while
    a determinism flag is on only in the parent: the child starts with it off."""
    from reprolint.analysis.facts import Call

    def usages(kind: type[Usage]) -> Any:
        everywhere = [facts.events, *(f.events for f in facts.functions.values())]
        return (e for events in everywhere for e in events if type(e) is kind)

    out: list[tuple[cst.Call, str, dict[str, Any]]] = []
    sites = state.sites + (state.processes if state.spawn_method else [])
    for site in sites:
        worker = facts.functions.get(site.worker) if site.worker is not None and site.flags else None
        if worker is None:
            continue
        events = worker.events
        if not any(isinstance(e, TrainStep) and e.name == "torch" for e in events):
            continue
        if any(isinstance(e, Call) and "determinis" in e.text.lower() for e in events):
            continue  # a helper sets the flags in the worker (resolved or not)
        if next(usages(CudaWork), None) is None:
            continue  # RPL301/RPL302 are about CUDA
        for name, (code, setting) in _FLAGS.items():
            set_here = [f for f in site.flags if f.name == name]
            if not set_here or name in site.child_flags:
                continue
            if any(isinstance(e, FlagSet) and e.name == name for e in events):
                continue  # the worker sets it itself
            if code == "RPL302" and next(usages(CudnnLayer), None) is None:
                continue  # no convolution or RNN layer: cuDNN may never run
            out.append((site.node, code, {
                "variant": "spawn", "call": site.call, "worker": site.worker,
                "setting": setting, "flag_span": set_here[-1].span,
            }))
    return out


def _in_loop(module: cst.Module, calls: list[cst.Call], pools: dict[int, bool]) -> tuple[set[int], dict[str, bool]]:
    """The ids of those calls written inside a loop or a comprehension of their function,
    and the names ``Pool(...)`` calls are bound to (``with Pool(4) as pool``, ``pool =
    Pool()``) with whether the pool has more than one process."""
    wanted = {id(c) for c in calls}
    found: set[int] = set()
    bound: dict[str, bool] = {}
    # Built here, not at import: libcst's node types load on the first parse (reprolint._lazy).
    loops = (cst.For, cst.While, cst.ListComp, cst.GeneratorExp, cst.SetComp, cst.DictComp)

    def walk(node: cst.CSTNode, looping: bool) -> None:
        if id(node) in wanted and looping:
            found.add(id(node))
        if isinstance(node, cst.WithItem) and id(node.item) in pools and node.asname is not None:
            if isinstance(node.asname.name, cst.Name):
                bound[node.asname.name.value] = pools[id(node.item)]
        elif isinstance(node, cst.Assign) and id(node.value) in pools and len(node.targets) == 1:
            if isinstance(node.targets[0].target, cst.Name):
                bound[node.targets[0].target.value] = pools[id(node.value)]
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            looping = False
        elif isinstance(node, loops):
            looping = True
        for child in _children(node):
            walk(child, looping)

    walk(module, False)
    return found, bound


def shared_model_sites(state: SpawnCalls, module: cst.Module) -> list[tuple[cst.Call, cst.Call, dict[str, Any]]]:
    """(start call, ``share_memory()`` call, RPL405 data) for each place that hands one
    shared model to several worker processes; the rule checks that the worker trains."""
    candidates: list[tuple[SpawnSite, SharedModel]] = []
    for site in state.sites + state.processes + state.pool_sites:
        if site.target is None:
            continue
        for shared in state.shared:
            if shared.scope is site.scope and shared.name in site.passed:
                candidates.append((site, shared))
                break
    if not candidates:
        return []
    looped, pools = _in_loop(module, [site.node for site, _ in candidates], state.pools)
    out = []
    for site, shared in candidates:
        if site.pool is not None:
            if not pools.get(site.pool, False):
                continue  # not a pool, or a pool of one process
        twins = sum(1 for other, s in candidates if s is shared and other.target == site.target)
        if not (site.several or id(site.node) in looped or twins > 1):
            continue  # one worker process: nothing races it
        out.append((site.node, shared.node, {
            "call": site.call, "worker": site.target.lstrip(":").rsplit(".", 1)[-1],
            "worker_target": site.target, "model": shared.name,
        }))
    return out
