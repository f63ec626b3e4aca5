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

* the spawning function (or the module's top level before it) runs a seeding call
  before the spawn;
* the worker is a function of the same module that draws or trains (a catalogued draw,
  a backward pass, an optimizer);
* the worker seeds nothing itself (no seeding call, no call of a ``*seed*`` helper).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

import libcst as cst

SPAWNS = frozenset({
    "torch.multiprocessing.spawn", "torch.multiprocessing.start_processes",
    "torch.multiprocessing.spawn.spawn",
})
PROCESSES = frozenset({"multiprocessing.Process", "torch.multiprocessing.Process"})
START_METHODS = frozenset({"multiprocessing.set_start_method", "torch.multiprocessing.set_start_method"})


@dataclass
class SpawnSite:
    node: cst.Call
    call: str  # the callee as written
    worker: str  # the worker function's name
    seeds: list[Any]  # Seed events that ran before the spawn (module, then the function)


@dataclass
class SpawnCalls:
    sites: list[SpawnSite] = field(default_factory=list)
    processes: list[SpawnSite] = field(default_factory=list)  # Process(target=...): spawn only if asked
    spawn_method: bool = False  # set_start_method("spawn"/"forkserver") somewhere in the module


def _worker(node: Optional[cst.BaseExpression]) -> Optional[str]:
    return node.value if isinstance(node, cst.Name) else None


def note_call(state: SpawnCalls, c: Any, node: cst.Call, qn: Optional[str]) -> None:
    """Record a spawn (called from the fact collector's ``visit_Call``)."""
    from reprolint.analysis.facts import Seed, _literal

    if qn in START_METHODS and node.args and _literal(node.args[0].value) in ("spawn", "forkserver"):
        state.spawn_method = True
        return
    if qn in SPAWNS:
        worker = _worker(node.args[0].value if node.args and node.args[0].keyword is None else None)
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == "fn":
                worker = _worker(arg.value)
        target = state.sites
    elif qn in PROCESSES:
        worker = None
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == "target":
                worker = _worker(arg.value)
        target = state.processes
    else:
        return
    if worker is None:
        return
    seeds = [e for e in c.scopes[0].events if isinstance(e, Seed)]
    if c.scope is not c.scopes[0]:
        seeds += [e for e in c.scope.events if isinstance(e, Seed)]
    target.append(SpawnSite(node, c.text(node.func), worker, seeds))


def findings(state: SpawnCalls, facts: Any) -> list[tuple[cst.Call, dict[str, Any]]]:
    """(spawn call, RPL101 data) for each spawn whose worker draws unseeded in its process."""
    from reprolint.analysis.facts import Call, Draw, Seed
    from reprolint.analysis.usage import Usage

    sites = state.sites + (state.processes if state.spawn_method else [])
    out: list[tuple[cst.Call, dict[str, Any]]] = []
    for site in sites:
        if not site.seeds:
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
        trains = any(isinstance(e, Usage) and e.kind == "train" for e in events)
        if not draws and not trains:
            continue
        seed = site.seeds[-1]
        libraries = sorted({lib for s in site.seeds for lib in s.libs})
        out.append((site.node, {
            "variant": "spawn", "call": site.call, "worker": site.worker,
            "seed_call": seed.text, "seed_span": seed.span, "libraries": ", ".join(libraries),
            "library": draws[0].library if draws else "torch",
        }))
    return out
