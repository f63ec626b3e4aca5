"""Reinforcement-learning environments (gym, gymnasium): generators no global seed reaches.

A gym/gymnasium environment owns its generator (``env.np_random``), and every space owns
one too. ``random.seed``, ``np.random.seed``, ``torch.manual_seed`` and ``seed_everything``
reach neither: ``env.reset()`` without ``seed=`` seeds the environment from OS entropy on
its first call (later calls continue that stream), and ``env.action_space.sample()`` draws
from the space's generator unless ``env.action_space.seed(s)`` ran. ``rules/rng.toml``
(``[[environment_draws]]``) lists the methods and what seeds them; tests/libraries checks
the claims against gymnasium.

These are RPL102 facts (a generator seeded from OS entropy), recorded per module when the
module never seeds an environment (``reset(seed=...)``, gym's
``env.seed(s)``, a factory given ``seed=`` such as ``envpool.make(..., seed=s)``) or the
space itself. The calls are told apart from look-alikes (``meter.reset()``,
``buffer.sample()``) by their receiver: an ``env``-named object for ``reset``, an
``action_space`` attribute for ``sample`` (observation spaces are sampled for dummy
inputs, not reported). The rule drops them where a program that runs the module seeds
an environment in another of its modules (``make_env(seed)`` in a helper module), and in
a module no program runs unless it seeds something else.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Optional

import libcst as cst

# Action spaces only: an observation space's sample() is nearly always a dummy input for
# shape inference (`network.init(key, obs_space.sample())`), whose values change nothing.
_SPACES = ("action_space", "single_action_space")
# Factories that seed the environments they build (`envpool.make(..., seed=s)`).
_SEEDING_FACTORIES = ("make", "make_vec", "make_gym", "make_gymnasium", "make_dm", "make_spec")
# Factories whose environments seed their spaces too, with or without `seed=`: dmc2gym's
# DMCWrapper calls its own seed(task_kwargs["random"]) in __init__ (`seed=` of `make`,
# default 1), and its seed() seeds the action and observation spaces (read in dmc2gym's
# source; not installable here: it needs MuJoCo).
_SPACE_SEEDING_FACTORIES = frozenset({"dmc2gym.make"})


@functools.lru_cache(maxsize=1)
def _catalog() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(libraries, reset-like methods, old gym's seeding methods) of
    ``[[environment_draws]]`` in rules/rng.toml."""
    from reprolint.catalog import load_catalog

    entries = load_catalog("rng").get("environment_draws", [])
    libraries = frozenset(lib for e in entries for lib in e.get("requires", ()))
    methods = frozenset(m for e in entries for m in e.get("methods", ()) if "." not in m)
    seeders = frozenset(m for e in entries for m in e.get("seed_methods", ()))
    return (
        libraries or frozenset({"gym", "gymnasium"}), methods or frozenset({"reset"}),
        seeders or frozenset({"seed"}),
    )


@dataclass
class EnvironmentCalls:
    """What one module does with environments and spaces."""

    resets: list[tuple[str, cst.Call]] = field(default_factory=list)  # (receiver, call) without seed=
    samples: list[tuple[str, cst.Call]] = field(default_factory=list)  # (space, call)
    seeded_envs: bool = False  # some reset(seed=...) / env.seed(...) runs
    seeded_spaces: set[str] = field(default_factory=set)  # space attribute names seeded
    # calls whose value only its type or shape is read of (`isinstance(space.sample(), int)`)
    type_only: set[int] = field(default_factory=set)


def _text(node: cst.BaseExpression) -> Optional[str]:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        inner = _text(node.value)
        return f"{inner}.{node.attr.value}" if inner else None
    return None


def _env_like(receiver: cst.BaseExpression) -> bool:
    text = _text(receiver)
    return text is not None and "env" in text.split(".")[-1].lower()


def note_type_only(state: EnvironmentCalls, node: cst.BaseExpression) -> None:
    """``node``'s value is read only for its type, shape or dtype (``isinstance(node,
    int)``, ``node.shape``): a sample drawn there reaches no result."""
    if type(node) is cst.Call:
        state.type_only.add(id(node))


def note_call(state: EnvironmentCalls, uses: set[str], node: cst.Call, collector: Any = None) -> bool:
    """Record ``env.reset(...)``, ``env.seed(...)``, ``<space>.sample()``, ``<space>.seed(...)``;
    True when the call is an unseeded reset or a sample (a site RPL102 may report).
    A receiver that holds an instance of a class the module defines (a notebook's own toy
    MDP: ``env = StochasticMDP()``) is no gym environment."""
    func = node.func
    if not isinstance(func, cst.Attribute):
        return False
    if collector is not None and collector.qualify(func) in _SPACE_SEEDING_FACTORIES:
        state.seeded_envs = True
        state.seeded_spaces.add("action_space")
        return False
    libraries, reset_methods, seed_methods = _catalog()
    if not uses & libraries:
        return False
    method, receiver = func.attr.value, func.value
    if method in _SEEDING_FACTORIES and any(a.keyword is not None and a.keyword.value == "seed" for a in node.args):
        state.seeded_envs = True
        return False
    space = receiver.attr.value if isinstance(receiver, cst.Attribute) else None
    if space in _SPACES:
        if method == "seed":
            state.seeded_spaces.add(space.replace("single_", ""))
        elif method == "sample" and id(node) not in state.type_only:
            state.samples.append((_text(receiver) or space, node))
            return True
        return False
    if not _env_like(receiver) or (
        collector is not None and isinstance(receiver, cst.Name) and _own_instance(collector, receiver.value)
    ):
        return False
    if method in seed_methods and node.args:
        state.seeded_envs = True  # gym < 0.26: env.seed(s) seeds it; a later reset() continues
    elif method in reset_methods:
        if any((a.keyword is not None and a.keyword.value == "seed") or a.star for a in node.args):
            state.seeded_envs = True
        else:
            state.resets.append((_text(receiver) or "env", node))
            return True
    return False


def _own_instance(collector: Any, name: str) -> bool:
    """``name`` holds an instance of a class the collector's module defines."""
    calls = collector._u_calls
    made = calls.get((id(collector.scope), name)) or calls.get((id(collector.scopes[0]), name)) or ""
    return made.lstrip(":") in collector.facts.classes


def findings(state: EnvironmentCalls) -> list[tuple[cst.Call, dict[str, Any]]]:
    """(call, RPL102 data) of each unseeded reset and each unseeded sample of an action
    space, in source order: the rule reports the first of each environment (``call``)
    that runs, and decides where they count."""
    out: list[tuple[cst.Call, dict[str, Any]]] = []
    if not state.seeded_envs:
        out += [(call, {"call": f"{receiver}.reset", "variant": "env-reset"}) for receiver, call in state.resets]
    for receiver, call in state.samples:
        space = receiver.split(".")[-1].replace("single_", "")
        if space not in state.seeded_spaces:
            out.append((call, {"call": f"{receiver}.sample", "variant": "env-space", "space": receiver}))
    return out
