"""The codec of cache entries: facts and run results to JSON and back, nothing else.

JSON, never pickle, and decoding rebuilds only dataclasses from an allow-list (the fact
types of :mod:`reprolint.analysis.facts`, found by walking its namespace, so new fact
types work without edits here; the result types of :mod:`reprolint.model` for run
entries), checking the type of every simply-typed field and the range of every line and
column; anything else — an unknown tag, a missing field, a wrong type, bad JSON — raises
:class:`CorruptEntry`. The store that signs, writes and reads entries is
:mod:`reprolint.cache`.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import math
import sys
import typing
from types import ModuleType
from typing import Any, Optional

__all__ = [
    "MAX_POSITION",
    "CorruptEntry",
    "decode",
    "encode",
    "fact_types",
    "loads",
    "model_types",
    "plain_data",
]


class CorruptEntry(ValueError):
    """A cache entry that cannot be decoded into exactly what was stored."""



def _dataclasses_in(module: ModuleType) -> dict[str, type]:
    return {
        name: value
        for name, value in vars(module).items()
        if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__name__ == name
    }


_DATA_LEAVES = (int, str, bool, float, bytes, type(None), tuple, list, dict, frozenset, set)


def plain_data(cls: type, seen: Optional[set[type]] = None) -> bool:
    """Whether every field of a dataclass holds only data: JSON-like values, enums,
    ``Any``, or dataclasses that are plain data themselves."""
    seen = set() if seen is None else seen
    if cls in seen:
        return True
    seen.add(cls)
    try:
        hints = typing.get_type_hints(cls, vars(sys.modules[cls.__module__]))
    except Exception:  # noqa: BLE001 - an unresolvable hint: not provably data
        return False
    stack = [hints.get(f.name, Any) for f in dataclasses.fields(cls)]
    while stack:
        hint = stack.pop()
        args = typing.get_args(hint)
        if args:
            stack.extend(a for a in args if a is not Ellipsis)
            continue
        hint = typing.get_origin(hint) or hint
        if hint is Any or hint in _DATA_LEAVES:
            continue
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            continue
        if isinstance(hint, type) and dataclasses.is_dataclass(hint) and plain_data(hint, seen):
            continue
        return False
    return True


@functools.lru_cache(maxsize=1)
def fact_types() -> dict[str, type]:
    """Class name -> dataclass for every type a cache entry may hold.

    Every public dataclass in the namespace of :mod:`reprolint.analysis.facts` (its
    own and the ones it imports, such as ``Span``), plus the dataclasses of the modules
    those come from (a fact type defined in a helper module and re-exported). Private
    helpers (a leading underscore) are never stored, so they are left out, and so is a
    dataclass whose fields hold anything but data (a libcst node of a helper type).
    """
    from reprolint.analysis import facts

    found: dict[str, type] = {}
    modules = {facts.__name__: facts}
    for cls in _dataclasses_in(facts).values():
        module = sys.modules.get(cls.__module__)
        if module is not None:
            modules.setdefault(module.__name__, module)
    for module in modules.values():
        for name, cls in _dataclasses_in(module).items():
            if name.startswith("_") or not plain_data(cls):
                continue  # private, or holding more than data (a libcst node, a callable)
            other = found.get(name)
            if other is not None and other is not cls:
                raise TypeError(f"two fact types named {name}: {other!r} and {cls!r}")
            found[name] = cls
    return found


@functools.lru_cache(maxsize=1)
def model_types() -> dict[str, type]:
    """The result types of :mod:`reprolint.model` (dataclasses and enums), for run entries."""
    from reprolint import model

    return {
        name: value for name, value in vars(model).items()
        if isinstance(value, type) and value.__module__ == model.__name__
        and (dataclasses.is_dataclass(value) or issubclass(value, enum.Enum))
    }


def _types(kind: str) -> dict[str, type]:
    return model_types() if kind == "model" else fact_types()


def encode(value: Any, kind: str = "facts") -> Any:
    """A JSON-ready form of facts: dataclasses tagged by class name, containers tagged.

    JSON has lists, string-keyed objects and finite numbers only, so tuples, sets,
    frozensets, dicts with any keys and non-finite floats carry a one-key tag object.
    """
    if isinstance(value, enum.Enum):
        cls = type(value)
        if _types(kind).get(cls.__name__) is not cls:
            raise TypeError(f"cannot cache a {cls.__module__}.{cls.__qualname__}")
        return {"!e": [cls.__name__, value.value]}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"!f": repr(value)}
    if isinstance(value, list):
        return [encode(v, kind) for v in value]
    if isinstance(value, tuple):
        return {"!t": [encode(v, kind) for v in value]}
    if isinstance(value, dict):
        return {"!d": [[encode(k, kind), encode(v, kind)] for k, v in value.items()]}
    if isinstance(value, frozenset):
        return {"!fs": sorted((encode(v, kind) for v in value), key=_order)}
    if isinstance(value, set):
        return {"!s": sorted((encode(v, kind) for v in value), key=_order)}
    cls = type(value)
    if kind == "model" and dataclasses.is_dataclass(value) and _types(kind).get(cls.__name__) is not cls:
        # A subclass made after the analysis (reprolint.fixing.PlannedFix adds where
        # `fix` applies it): a run entry keeps what `check` reports, the model part.
        for base in cls.__mro__[1:]:
            if _types(kind).get(base.__name__) is base and dataclasses.is_dataclass(base):
                cls = base
                break
    if dataclasses.is_dataclass(value) and _types(kind).get(cls.__name__) is cls:
        out = {"!c": cls.__name__}
        for f in dataclasses.fields(cls):
            if f.init:
                out[f.name] = encode(getattr(value, f.name), kind)
        return out
    raise TypeError(f"cannot cache a {cls.__module__}.{cls.__qualname__}")


def _order(encoded: Any) -> str:
    # Sets are stored sorted so equal facts give byte-identical entries.
    return json.dumps(encoded, sort_keys=True)


def decode(value: Any, kind: str = "facts") -> Any:
    """Inverse of :func:`encode` for an already-parsed JSON value (see :func:`loads`)."""
    return loads(json.dumps(value), kind)


def loads(text: Any, kind: str = "facts") -> Any:
    """Parse and decode JSON text; raises :class:`CorruptEntry` on anything unexpected.

    Decoding happens in ``json``'s object hook, which sees only tagged objects: plain
    strings, numbers and lists never cross into Python code one by one (5x faster than
    a recursive walk on a warm run).
    """
    try:
        types = _types(kind)
        return json.loads(
            text, object_hook=lambda value: _object(value, types), parse_constant=_constant
        )
    except CorruptEntry:
        raise
    except (ValueError, RecursionError, TypeError) as exc:
        raise CorruptEntry(str(exc)) from exc


def _constant(name: str) -> Any:
    raise CorruptEntry(f"bare {name} in an entry")


def _object(value: dict[str, Any], types: dict[str, type]) -> Any:
    name = value.get("!c")
    if name is not None:
        cls = types.get(name) if isinstance(name, str) else None
        if cls is not None and not dataclasses.is_dataclass(cls):
            cls = None
        if cls is None:
            raise CorruptEntry(f"unknown fact type {name!r:.80}")
        del value["!c"]
        for field_name, allowed, bounded in _field_checks(cls):
            item = value.get(field_name, _MISSING)
            if item is _MISSING:
                continue  # a default, or a missing field (the constructor says so)
            if not isinstance(item, allowed) or (bounded and isinstance(item, int) and not (
                    type(item) is int and 0 <= item <= MAX_POSITION)):
                raise CorruptEntry(f"bad {cls.__name__}.{field_name}: {type(item).__name__}")
        try:
            return cls(**value)
        except (TypeError, ValueError) as exc:
            raise CorruptEntry(f"cannot rebuild {cls.__name__}: {exc}") from exc
    if len(value) != 1:
        return value  # a plain object: only the entry's own envelope has these
    (tag, inner), = value.items()
    if tag == "!f" and inner in ("nan", "inf", "-inf"):
        return float(inner)
    if tag == "!e" and isinstance(inner, list) and len(inner) == 2:
        cls = types.get(inner[0]) if isinstance(inner[0], str) else None
        if cls is None or not issubclass(cls, enum.Enum):
            raise CorruptEntry(f"unknown enum {inner[0]!r:.40}")
        try:
            return cls(inner[1])
        except ValueError as exc:
            raise CorruptEntry(str(exc)) from exc
    if not tag.startswith("!"):
        return value
    if not isinstance(inner, list):
        raise CorruptEntry(f"bad {tag} payload")
    if tag == "!t":
        return tuple(inner)
    if tag == "!fs":
        return frozenset(_hashable(v) for v in inner)
    if tag == "!s":
        return {_hashable(v) for v in inner}
    if tag == "!d":
        out = {}
        for pair in inner:
            if not isinstance(pair, list) or len(pair) != 2:
                raise CorruptEntry("bad dict item")
            out[_hashable(pair[0])] = pair[1]
        return out
    raise CorruptEntry(f"unknown tag {tag!r:.20}")


_MISSING = object()

# The largest line or column a decoded entry may hold (a planted 10**300 is corrupt).
MAX_POSITION = 100_000_000

_SIMPLE = {int: (int,), str: (str,), bool: (bool,), float: (float, int), type(None): (type(None),)}
_CONTAINERS = {tuple: tuple, list: list, dict: dict, frozenset: frozenset, set: set}


def _allowed(hint: Any) -> Optional[tuple[type, ...]]:
    """The runtime types a decoded value of ``hint`` may have (None: not checked)."""
    if hint in _SIMPLE:
        return _SIMPLE[hint]
    origin = typing.get_origin(hint)
    if origin is typing.Union:
        found: list[type] = []
        for arg in typing.get_args(hint):
            inner = _allowed(arg)
            if inner is None:
                return None
            found.extend(inner)
        return tuple(found)
    if origin in _CONTAINERS:
        return (_CONTAINERS[origin],)
    if hint in _CONTAINERS:
        return (_CONTAINERS[hint],)
    if isinstance(hint, type) and (dataclasses.is_dataclass(hint) or issubclass(hint, enum.Enum)):
        return (hint,)
    return None


def _is_position(name: str) -> bool:
    return name.endswith(("line", "col", "column", "lineno")) or name in ("cell",)


@functools.lru_cache(maxsize=None)
def _field_checks(cls: type) -> tuple[tuple[str, tuple[type, ...], bool], ...]:
    """Per field of ``cls`` whose type can be checked: its name, the types it may hold
    and whether it is a line or column (bounded by :data:`MAX_POSITION`)."""
    try:
        hints = typing.get_type_hints(cls, vars(sys.modules[cls.__module__]))
    except Exception:  # noqa: BLE001 - an unresolvable hint is simply not checked
        return ()
    checks = []
    for f in dataclasses.fields(cls):
        allowed = _allowed(hints.get(f.name, Any))
        if allowed is not None:
            checks.append((f.name, allowed, _is_position(f.name) and int in allowed))
    return tuple(checks)


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError as exc:
        raise CorruptEntry("unhashable set element or dict key") from exc
    return value
