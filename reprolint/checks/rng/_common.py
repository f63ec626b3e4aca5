"""Shared wording for the randomness rules."""

from __future__ import annotations

from reprolint.analysis.facts import Draw
from reprolint.analysis.rng_catalog import rng_catalog

_VERBS = {
    "draw": "draws from",
    "init": "initialises weights from",
    "shuffle": "shuffles with",
    "dropout": "draws dropout masks from",
    "split": "splits data with",
}

LIBRARY_NAMES = {"random": "`random`", "numpy": "NumPy", "torch": "torch", "tensorflow": "TensorFlow"}


def describe_draw(draw: Draw) -> str:
    """"`torch.randn` draws from torch's global RNG" and the like."""
    callee = draw.text
    if draw.kind in ("init", "shuffle", "split") or draw.api.startswith("."):
        callee = f"{callee}(...)"
    verb = _VERBS.get(draw.kind, "draws from")
    return f"`{callee}` {verb} {rng_catalog().display(draw.library)} global RNG"


def library_list(libs: "set[str] | frozenset[str] | tuple[str, ...]") -> str:
    names = [LIBRARY_NAMES.get(lib, lib) for lib in sorted(libs)]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def location(path: str, line: int) -> str:
    return f"{path}:{line}"
