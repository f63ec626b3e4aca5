"""Shared wording and fix wiring for the randomness rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, TypeVar

from reprolint.analysis.facts import Draw, ModuleFacts, Seed
from reprolint.catalog.rng import rng_catalog
from reprolint.fixes.planning import FixAction

if TYPE_CHECKING:
    import libcst as cst

    from reprolint.analysis.program import DrawOutcome, Program
    from reprolint.checks.base import CheckContext
    from reprolint.fixes.planning import FixPlanner
    from reprolint.model import Applicability, Diagnostic

T = TypeVar("T")

_VERBS = {
    "draw": "draws from",
    "init": "initialises weights from",
    "shuffle": "shuffles with",
    "dropout": "draws dropout masks from",
    "split": "splits data with",
}

LIBRARY_NAMES = {"random": "`random`", "numpy": "NumPy", "torch": "torch", "tensorflow": "TensorFlow"}


def draw_fields(draw: Draw) -> dict[str, str]:
    """The message fields of a draw: ``call`` (`torch.randn`, `nn.Linear(...)`), ``action``
    ("draws from", "initialises weights from"...), ``rng`` ("torch's global RNG") and
    ``library`` (the catalog's name: torch, numpy, random, tensorflow)."""
    callee = draw.text
    if draw.kind in ("init", "shuffle", "split") or draw.api.startswith("."):
        callee = f"{callee}(...)"
    kind = draw.kind
    if kind == "init" and draw.api.startswith(".") and not _weight_receiver(draw.text):
        # `x.uniform_()` of a tensor not visibly a weight (the input noise of a network):
        # it draws; whether it initialises weights is not established
        kind = "draw"
    return {
        "call": callee,
        "action": _VERBS.get(kind, "draws from"),
        "rng": f"{rng_catalog().display(draw.library)} global RNG",
        "library": draw.library,
        "api": draw.api,
    }


def _weight_receiver(text: str) -> bool:
    """Whether an in-place draw's callee text (``m.weight.data.normal_``) shows a weight
    as its receiver: a ``weight``/``bias`` attribute, or the ``.data`` of a parameter."""
    parts = [p.split("[", 1)[0] for p in text.split(".")[:-1]]
    return any(p == "data" or "weight" in p.lower() or "bias" in p.lower() for p in parts)


def library_list(libs: "set[str] | frozenset[str] | tuple[str, ...]") -> str:
    names = [LIBRARY_NAMES.get(lib, lib) for lib in sorted(libs)]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def location(path: str, line: int) -> str:
    return f"{path}:{line}"


def entry_list(entries: "list[str] | tuple[str, ...]") -> str:
    """The entry points a finding is about, as its message names them."""
    if len(entries) <= 3:
        return ", ".join(entries)
    return f"{', '.join(entries[:2])} and {len(entries) - 2} more"


def roles(ctx: "CheckContext", entries: "list[str] | tuple[str, ...]") -> dict[str, str]:
    """The role of each entry point (JSON ``roles``)."""
    by_entry = ctx.memo.get("rng.roles")
    if by_entry is None:
        by_entry = ctx.memo["rng.roles"] = {p.entry: p.role.value for p in ctx.programs}
    return {e: by_entry[e] for e in entries if e in by_entry}


def located_action(
    planner: FixPlanner,
    d: Diagnostic,
    key: tuple[Any, ...],
    title: str,
    locate: Callable[[cst.Module], Optional[T]],
    change: Callable[[cst.Module, T], cst.Module],
    level: "Optional[Applicability]" = None,
) -> Optional[FixAction]:
    """A fix in the finding's own file: ``locate`` finds what to change in a module (None:
    not there, so no fix), ``change`` rewrites the module there. The action finds it
    again in the module it is given, and leaves a module where it is gone as it is."""
    module = planner.module(d.path)
    if module is None or locate(module) is None:
        return None

    def apply(m: cst.Module) -> cst.Module:
        found = locate(m)
        return m if found is None else change(m, found)

    return FixAction(d.path, key, level or planner.applicability(d.code), title, apply)


def lasting_draws(program: "Program") -> Iterator["DrawOutcome"]:
    """The global-RNG draws of ``program``'s default run whose values stay, in execution
    order: not weights a checkpoint load replaces (nor dropout in a model put in eval
    mode), not a draw that picks a seed (RPL103 reports a seed drawn at random), and not
    a draw only on branches the default options skip (seeding rules keep default-run
    semantics). RPL101 reports the unseeded ones; RPL104 lists those a skipped seeding
    call leaves unseeded."""
    for outcome in program.draws:
        if outcome.on_default and not program.overwrites_init(outcome) \
                and (outcome.path, outcome.draw.span) not in program.seed_draws:
            yield outcome


def rpl101_reports(ctx: "CheckContext", program: "Program", library: str) -> bool:
    """Whether RPL101 reports ``library``'s unseeded draws in ``program`` (one cause, one
    finding: RPL105 and RPL306 then leave that library to it): RPL101 is enabled for a
    draw's file and at least one unseeded draw of the library is not suppressed for it."""
    if not program.checks_randomness:
        return False
    return any(
        o.library == library and not o.seeded_before and not program.overwrites_init(o)
        and ctx.settings.is_enabled("RPL101", o.path) and not ctx.suppressed("RPL101", o.path, o.draw.span)
        for o in program.draws
    )


def none_default_flag(program: "Program", option: str) -> Optional[str]:
    """The flag of ``option`` as a message names it (```--seed```, or ```seed` in
    `configs/train.yaml``` for a configuration key) when ``program`` leaves it None by default
    (``default=None`` or no default) and no module of it assigns the attribute
    (``opt.manualSeed = random.randint(...)`` when it is None) or a key of that name
    (``params['seed'] = int(args.seed)`` when it is not None, the configuration's seed
    otherwise), else None."""
    if option in program.arg_defaults and program.lookup(option) is None \
            and option not in program.assigned_attrs and option not in program.assigned_keys:
        return program.option_name(option)
    return None


def module_seeds(facts: ModuleFacts) -> Iterator[Seed]:
    """Every seeding call written in a module: its top level and its functions."""
    for event in facts.events:
        if isinstance(event, Seed):
            yield event
    for qualname, fn in facts.functions.items():
        if fn.qualname != qualname:
            continue  # nested functions are listed twice
        for event in fn.events:
            if isinstance(event, Seed):
                yield event
