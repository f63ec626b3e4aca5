"""Loads the TOML knowledge base in ``rules/`` (shipped as ``reprolint._rules``).

Which APIs a rule knows lives in the catalogs; how to detect lives in Python. The typed
views live beside this loader: :mod:`reprolint.catalog.rng` (``rng.toml``) and
:mod:`reprolint.catalog.ops` (``nondeterministic_ops.toml``, ``tf.toml``).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
from pathlib import Path
from typing import Any

from reprolint import _toml

__all__ = ["CatalogError", "catalog_digest", "catalog_names", "load_catalog"]


class CatalogError(ValueError):
    """A catalog file is missing or malformed (a bug in reprolint, not in user code)."""


@functools.lru_cache(maxsize=1)
def _rules_dir() -> Path:
    # find_spec, not importlib.resources: the same folder without importing zipfile and
    # the resource readers (~25 ms of every run's start-up; the cache key reads it).
    try:
        spec = importlib.util.find_spec("reprolint._rules")
    except ModuleNotFoundError:  # running from a source tree that was never installed
        spec = None
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        path = Path(location)
        if path.is_dir():
            return path
    return Path(__file__).resolve().parents[2] / "rules"


def catalog_names() -> list[str]:
    """Names of every catalog file (without ``.toml``), sorted."""
    return sorted(p.stem for p in _rules_dir().glob("*.toml"))


@functools.lru_cache(maxsize=None)
def load_catalog(name: str) -> dict[str, Any]:
    """Parse ``rules/<name>.toml``; raises :class:`CatalogError` with the file named."""
    path = _rules_dir() / f"{name}.toml"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogError(f"catalog {name!r} not found at {path}") from exc
    try:
        return _toml.loads(text)
    except _toml.TOMLDecodeError as exc:
        raise CatalogError(f"catalog {path}: {exc}") from exc


@functools.lru_cache(maxsize=1)
def catalog_digest() -> str:
    """A hash of every catalog file, for cache keys."""
    h = hashlib.sha256()
    for name in catalog_names():
        h.update(name.encode())
        h.update((_rules_dir() / f"{name}.toml").read_bytes())
    return h.hexdigest()[:16]
