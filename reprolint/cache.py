"""The on-disk cache of per-file analyses: facts, parse errors and suppression comments.

One JSON file per analysed source file, named by a key that hashes everything the
analysis of that file depends on: its path (as given) and content, the reprolint
version, the source of reprolint's analysis code, the catalogs and the configuration
that reaches the per-file pass. Nothing else is ever compared, so a stale entry can
never be found: a change to any input is a different key. The cross-file program model
is always recomputed from the cached facts.

JSON, never pickle: a repository can ship a cache folder, and ``reprolint check`` must
never execute anything it reads. Decoding rebuilds only dataclasses from an allow-list
(the fact types of :mod:`reprolint.analysis.facts`, found by walking its namespace, so
new fact types work without edits here); anything else — an unknown tag, a missing
field, bad JSON, a key that does not match — makes the entry corrupt, and a corrupt
entry is deleted and recomputed, never trusted.

Writes are atomic (temporary file in the same folder, then ``os.replace``), so runs in
parallel at worst both write the same entry. The folder writes its own ``.gitignore``.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import json
import math
import os
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator, Optional

__all__ = [
    "CACHE_FORMAT",
    "CorruptEntry",
    "FactsCache",
    "code_digest",
    "decode",
    "encode",
    "fact_types",
    "is_cache_folder",
    "loads",
    "run_key",
]

# Bumped when the layout of an entry changes (the key covers everything else).
CACHE_FORMAT = 1


class CorruptEntry(ValueError):
    """A cache entry that cannot be decoded into exactly what was stored."""


# --------------------------------------------------------------------------- the codec


def _dataclasses_in(module: ModuleType) -> dict[str, type]:
    return {
        name: value
        for name, value in vars(module).items()
        if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__name__ == name
    }


@functools.lru_cache(maxsize=1)
def fact_types() -> dict[str, type]:
    """Class name -> dataclass for every type a cache entry may hold.

    Every public dataclass in the namespace of :mod:`reprolint.analysis.facts` (its
    own and the ones it imports, such as ``Span``), plus the dataclasses of the modules
    those come from (a fact type defined in a helper module and re-exported). Private
    helpers (a leading underscore) are never stored, so they are left out.
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
            if name.startswith("_"):
                continue
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


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError as exc:
        raise CorruptEntry("unhashable set element or dict key") from exc
    return value


# --------------------------------------------------------------------------- the key


@functools.lru_cache(maxsize=1)
def code_digest() -> str:
    """A hash of reprolint's own per-file analysis code (so a changed checker misses).

    The version alone is not enough while reprolint is developed from a source tree;
    hashing the package's Python sources costs about a millisecond.
    """
    import reprolint

    root = Path(reprolint.__file__).resolve().parent
    h = hashlib.sha256(reprolint.__version__.encode())
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(("harness/", "runtime/", "reporters/")):
            continue  # never reached by a check (reporters run after the cache)
        h.update(rel.encode())
        try:
            h.update(path.read_bytes())
        except OSError:
            pass
    return h.hexdigest()[:16]


def _installed_frameworks() -> list[str]:
    """dist-info names of torch and TensorFlow on ``sys.path`` (version-aware rules read
    the installed versions). A directory listing, ~1 ms, instead of importlib.metadata."""
    found = []
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        found.extend(
            n for n in names
            if n.startswith(("torch-", "tensorflow-")) and n.endswith((".dist-info", ".egg-info"))
        )
    return sorted(found)


def run_key(salt: str, settings: Any, roots: list[str], file_keys: list[tuple[str, str]]) -> str:
    """The key of a whole run: every input of the diagnostics, and nothing else."""
    h = hashlib.sha256(salt.encode())
    for part in (repr(settings), repr(roots), repr(_installed_frameworks()), repr(file_keys)):
        h.update(b"\0")
        h.update(part.encode("utf-8", "surrogateescape"))
    return h.hexdigest()


# --------------------------------------------------------------------------- the store

_GITIGNORE = "# Created by reprolint: the analysis cache (`reprolint clean` removes it).\n*\n"


def is_cache_folder(folder: Path) -> bool:
    """Whether ``folder`` was made by :class:`FactsCache` (its ``.gitignore`` says so)."""
    try:
        return (Path(folder) / ".gitignore").read_text(encoding="utf-8") == _GITIGNORE
    except (OSError, UnicodeDecodeError):
        return False


class FactsCache:
    """Entries under ``folder``; ``salt`` is the configuration-and-code part of every key."""

    def __init__(self, folder: Path, salt: str) -> None:
        self.folder = Path(folder)
        self.salt = salt
        self._ready = False
        self.hits = 0
        self.misses = 0

    @classmethod
    def for_settings(cls, settings: Any) -> "FactsCache":
        """The cache of a run: ``cache-dir`` (relative to the configuration's folder)."""
        from reprolint.catalog import catalog_digest

        folder = Path(settings.root) / settings.cache_dir
        # Only settings that reach the per-file pass belong in the key; selection and
        # suppression are applied after the cache, so changing them keeps it warm.
        config = json.dumps({"torch_version": settings.torch_version}, sort_keys=True)
        salt = "\0".join(
            (str(CACHE_FORMAT), code_digest(), catalog_digest(), config, sys.version.split()[0])
        )
        return cls(folder, salt)

    def key(self, path: str, data: bytes) -> str:
        h = hashlib.sha256(self.salt.encode())
        h.update(b"\0")
        h.update(path.encode("utf-8", "surrogateescape"))
        h.update(b"\0")
        h.update(data)
        return h.hexdigest()

    def _entry(self, key: str) -> Path:
        return self.folder / "v1" / key[:2] / f"{key[2:]}.json"

    def load(self, key: str) -> Optional[dict[str, Any]]:
        """The stored payload, or None (missing, unreadable or corrupt: then deleted)."""
        entry = self._entry(key)
        try:
            raw = entry.read_bytes()
        except OSError:
            self.misses += 1
            return None
        try:
            stored = loads(raw)
            if not isinstance(stored, dict) or stored.get("key") != key:
                raise CorruptEntry("key mismatch")
            payload = stored.get("payload")
            if not isinstance(payload, dict):
                raise CorruptEntry("no payload")
        except CorruptEntry:
            self.discard(key)
            self.misses += 1
            return None
        self.hits += 1
        return payload

    def discard(self, key: str) -> None:
        try:
            self._entry(key).unlink()
        except OSError:
            pass

    def store(self, key: str, payload: dict[str, Any]) -> None:
        """Write an entry atomically; a cache that cannot be written is silently skipped."""
        entry = self._entry(key)
        try:
            self._prepare()
            entry.parent.mkdir(parents=True, exist_ok=True)
            text = json.dumps({"key": key, "payload": payload}, separators=(",", ":"))
            fd, tmp = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-", suffix=".json")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    handle.write(text)
                os.replace(tmp, entry)
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except (OSError, TypeError, ValueError, RecursionError):
            pass

    def _prepare(self) -> None:
        if self._ready:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        ignore = self.folder / ".gitignore"
        if not ignore.exists():
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(_GITIGNORE)
            os.replace(tmp, ignore)
        self._ready = True

    def entries(self) -> Iterator[Path]:
        yield from (self.folder / "v1").glob("*/*.json")

    def load_run(self, key: str) -> Optional[list[Any]]:
        """The diagnostics of an earlier run with exactly these inputs, or None."""
        try:
            stored = loads((self.folder / "runs" / f"{key}.json").read_bytes(), "model")
        except (OSError, CorruptEntry):
            return None
        if not isinstance(stored, dict) or stored.get("key") != key:
            return None
        diagnostics = stored.get("diagnostics")
        return diagnostics if isinstance(diagnostics, list) else None

    def store_run(self, key: str, diagnostics: list[Any]) -> None:
        folder = self.folder / "runs"
        try:
            self._prepare()
            folder.mkdir(exist_ok=True)
            text = json.dumps(
                {"key": key, "diagnostics": encode(diagnostics, "model")}, separators=(",", ":")
            )
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(tmp, folder / f"{key}.json")
        except (OSError, TypeError, ValueError, RecursionError):
            pass

    def load_aux(self, name: str) -> Any:
        """A helper value stored under this cache's salt (None when absent or bad)."""
        try:
            stored = json.loads((self.folder / f"{name}-{self.key(name, b'')[:16]}.json").read_bytes())
        except (OSError, ValueError, RecursionError):
            return None
        return stored.get("value") if isinstance(stored, dict) else None

    def store_aux(self, name: str, value: Any) -> None:
        try:
            self._prepare()
            target = self.folder / f"{name}-{self.key(name, b'')[:16]}.json"
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump({"value": value}, handle)
            os.replace(tmp, target)
        except (OSError, TypeError, ValueError):
            pass
