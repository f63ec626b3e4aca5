"""Typed view of the nondeterministic-op knowledge base.

Two catalogs feed the op rules:

* ``rules/nondeterministic_ops.toml`` -- PyTorch ops that
  ``torch.use_deterministic_algorithms(True)`` makes deterministic (RPL201) or
  that raise under it (RPL202), plus the ``CUBLAS_WORKSPACE_CONFIG`` facts.
* ``rules/tf.toml`` -- TensorFlow/Keras ops, settings and determinism flags
  (RPL204, RPL304).

This module turns the parsed TOML into frozen dataclasses, validates every entry
(a malformed entry raises :class:`reprolint.catalog.CatalogError` naming it), and
answers the questions a rule asks: *which entries hold for torch X.Y?*, *which
entries is ``torch.nn.functional.interpolate`` called by?*, *does this call's
arguments meet the entry's argument conditions?*.

The schema is documented in ``rules/README.md``. Versions are compared with a tiny
comparator (``packaging`` is not a dependency).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from reprolint.catalog import CatalogError, load_catalog
from reprolint.catalog.op_entries import (
    MISSING,
    UNKNOWN,
    ArgCondition,
    CublasFacts,
    Literal_,
    OpEntry,
    TfFlag,
    TfSetting,
    Version,
    as_version,
    normalize_name,
    parse_version,
)

__all__ = [
    "ArgCondition",
    "CublasFacts",
    "OpEntry",
    "TfFlag",
    "TfSetting",
    "UNKNOWN",
    "Version",
    "entries_for_tf",
    "entries_for_torch",
    "load_cublas",
    "load_tf_flags",
    "load_tf_ops",
    "load_tf_settings",
    "load_torch_ops",
    "lookup",
    "normalize_name",
    "parse_tf_catalog",
    "parse_torch_catalog",
    "parse_version",
]


# --------------------------------------------------------------------------- vocabularies

KINDS: Final = frozenset({"deterministic-with-flag", "raises", "nondeterministic"})
TORCH_KINDS: Final = frozenset({"deterministic-with-flag", "raises"})

# Facts a static checker usually cannot see at a call site; rules mention them in
# the message instead of deciding on them. Documented in rules/README.md.
RUNTIME_TAGS: Final = frozenset(
    {
        "sparse-dense",  # one operand sparse, the other dense
        "index-is-tensor-list",  # t[[idx_a, idx_b]] style advanced indexing
        "requires-grad",  # the input requires grad (the backward pass is the problem)
        "src-is-tensor",  # scatter called with a tensor `src`, not a scalar `value`
        "input-1d",  # the input tensor has exactly one dimension
        "input-nd",  # the input tensor has more than one dimension
        "floating-or-complex-dtype",
        "quantized",  # the tensor is quantized
        "spatial-input",  # loss input has more than two dimensions (N, C, d1, ...)
        "cudnn-enabled",  # the cuDNN implementation is selected
        "fine-tuning-inference-mode",  # Keras BN trainable but called with training=False
        "no-global-seed",  # tf.random.set_seed was never called
        "cudnn-older-than-7.6",
        "indexed-slices-input",  # a tf.IndexedSlices value (sparse gradient)
    }
)

_FIXED_BY_FIXED: Final = frozenset(
    {
        "torch.use_deterministic_algorithms",
        "torch.backends.cudnn.deterministic",
        "tensorflow.config.experimental.enable_op_determinism",
    }
)
_FIXED_BY_ENV_RE: Final = re.compile(r"^env:[A-Z][A-Z0-9_]*=\S+$")

_TORCH_NAME_RE: Final = re.compile(r"^(?:torch(?:\.[A-Za-z_]\w*)+|Tensor\.[A-Za-z_]\w*)$")
_TF_NAME_RE: Final = re.compile(r"^(?:tensorflow|keras)(?:\.[A-Za-z_]\w*)+$")
_ID_RE: Final = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_IDENT_RE: Final = re.compile(r"^[A-Za-z_]\w*$")

TORCH_DEVICES: Final = frozenset({"cuda", "cpu", "any"})
TF_DEVICES: Final = frozenset({"gpu", "cpu", "any"})



class _Reader:
    """Reads one TOML table with precise, entry-naming errors."""

    def __init__(self, catalog: str, what: str, table: Any) -> None:
        self.catalog = catalog
        self.what = what
        if not isinstance(table, Mapping):
            self.fail("must be a table")
        self.table: Mapping[str, Any] = table

    def fail(self, message: str) -> Any:
        raise CatalogError(f"catalog {self.catalog!r}: {self.what}: {message}")

    def check_keys(self, allowed: Iterable[str]) -> None:
        unknown = sorted(set(self.table) - set(allowed))
        if unknown:
            self.fail(f"unknown key(s) {', '.join(unknown)}")

    def text(self, key: str, *, required: bool = True) -> str | None:
        value = self.table.get(key)
        if value is None:
            if required:
                self.fail(f"missing required key {key!r}")
            return None
        if not isinstance(value, str) or not value.strip():
            self.fail(f"{key!r} must be a non-empty string")
        return value

    def boolean(self, key: str, default: bool = False) -> bool:
        value = self.table.get(key, default)
        if not isinstance(value, bool):
            self.fail(f"{key!r} must be true or false")
        return value

    def strings(self, key: str, *, required: bool = False) -> tuple[str, ...]:
        value = self.table.get(key)
        if value is None:
            if required:
                self.fail(f"missing required key {key!r}")
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            self.fail(f"{key!r} must be a list of non-empty strings")
        if required and not value:
            self.fail(f"{key!r} must not be empty")
        if len(set(value)) != len(value):
            self.fail(f"{key!r} has duplicates")
        return tuple(value)

    def version(self, key: str, *, required: bool = True) -> Version | None:
        text = self.text(key, required=required)
        if text is None:
            return None
        if not re.fullmatch(r"\d+\.\d+(?:\.\d+)?", text):
            self.fail(f"{key!r} must look like '2.1' or '2.1.3', not {text!r}")
        return parse_version(text)

    def choice(self, key: str, choices: Iterable[str], default: str | None = None) -> str:
        value = self.table.get(key, default)
        allowed = sorted(choices)
        if value not in allowed:
            self.fail(f"{key!r} must be one of {', '.join(allowed)}, not {value!r}")
        return value  # type: ignore[no-any-return]

    def evidence(self) -> str:
        evidence = self.choice("evidence", {"read", "inferred"}, "read")
        if evidence == "inferred" and not self.table.get("notes"):
            self.fail("evidence 'inferred' needs 'notes' saying what was read instead")
        return evidence

    def reference(self) -> str:
        ref = self.text("reference")
        assert ref is not None
        if not ref.startswith("https://"):
            self.fail(f"'reference' must be an https:// URL, not {ref!r}")
        return ref


def _literal(reader: _Reader, value: Any, key: str) -> Literal_:
    if isinstance(value, (str, int, float, bool)):
        return value
    return reader.fail(f"{key!r} values must be strings, numbers or booleans")


_PREDICATES: Final = ("in", "not_in", "equals", "present")


def _parse_condition(reader: _Reader, raw: Any, entry_names: Sequence[str]) -> ArgCondition:
    # Same label as the entry, so every error about a condition names the entry.
    cond = _Reader(reader.catalog, reader.what, raw)
    cond.check_keys({"arg", "positions", "names", "default", *_PREDICATES})
    arg = cond.text("arg")
    assert arg is not None
    if not _IDENT_RE.match(arg):
        reader.fail(f"condition arg {arg!r} is not an identifier")
    given = [p for p in _PREDICATES if p in cond.table]
    if len(given) != 1:
        reader.fail(f"condition on {arg!r} needs exactly one of {', '.join(_PREDICATES)}")
    predicate = given[0]
    raw_value = cond.table[predicate]
    values: tuple[Literal_, ...]
    if predicate in ("in", "not_in"):
        if not isinstance(raw_value, list) or not raw_value:
            reader.fail(f"condition on {arg!r}: {predicate!r} must be a non-empty list")
        values = tuple(_literal(reader, v, predicate) for v in raw_value)
    elif predicate == "equals":
        values = (_literal(reader, raw_value, predicate),)
    else:
        if not isinstance(raw_value, bool):
            reader.fail(f"condition on {arg!r}: 'present' must be true or false")
        values = (raw_value,)
    default: Literal_ | object = MISSING
    if "default" in cond.table:
        if predicate == "present":
            reader.fail(f"condition on {arg!r}: 'default' makes no sense with 'present'")
        default = _literal(reader, cond.table["default"], "default")
    names = cond.strings("names")
    for name in names:
        if name not in entry_names:
            reader.fail(f"condition on {arg!r} names {name!r}, which is not in 'names'")
    raw_positions = cond.table.get("positions", {})
    if not isinstance(raw_positions, Mapping):
        reader.fail(f"condition on {arg!r}: 'positions' must be a table")
    positions: dict[str, int] = {}
    for name, index in raw_positions.items():
        if name not in entry_names:
            reader.fail(f"condition on {arg!r}: position given for {name!r}, not in 'names'")
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            reader.fail(f"condition on {arg!r}: position for {name!r} must be an int >= 0")
        positions[name] = index
    return ArgCondition(
        arg=arg,
        predicate=predicate,  # type: ignore[arg-type]
        values=values,
        default=default,
        positions=tuple(positions.items()),
        names=names,
    )


def _parse_conditions(reader: _Reader, names: Sequence[str]) -> tuple[ArgCondition, ...]:
    raw = reader.table.get("when", [])
    if not isinstance(raw, list):
        reader.fail("'when' must be a list of tables")
    return tuple(_parse_condition(reader, item, names) for item in raw)


def _check_range(reader: _Reader, since: Version, until: Version | None) -> None:
    if until is not None and until <= since:
        reader.fail("'until' must be later than 'since'")


# Each kind of entry is a table of its TOML keys in the order they are read and checked
# (so the first problem of a malformed entry is the one reported), each with the reader
# that validates it given the fields read before it. One parser reads every kind.

_Read = Callable[[_Reader, dict[str, Any]], Any]


@dataclass(frozen=True)
class _EntryKind:
    """One kind of catalog entry: the word errors name it by, its keys with their
    readers (the keys allowed are exactly these), and the class built from them."""

    what: str
    build: Callable[..., Any]
    fields: tuple[tuple[str, _Read], ...]


def _parse_entry(
    kind: _EntryKind, catalog: str, raw: Any, index: int | None = None, **given: Any
) -> Any:
    """One entry of ``kind`` from its TOML table (the ``index``-th of an array of tables,
    or the one table ``[what]``); ``given`` are fields the caller knows (an op's framework)."""
    if index is None:
        label = f"[{kind.what}]"
    else:
        entry_id = raw.get("id") if isinstance(raw, Mapping) else None
        name = repr(entry_id) if isinstance(entry_id, str) else f"#{index + 1}"
        label = f"{kind.what} {name}"
    r = _Reader(catalog, label, raw)
    r.check_keys(key for key, _ in kind.fields)
    fields = dict(given)
    for key, read in kind.fields:
        fields[key] = read(r, fields)
    return kind.build(**fields)


# ----------------------------------------------------------------- readers shared by kinds


def _ident(r: _Reader, fields: dict[str, Any]) -> str:
    ident = r.text("id")
    assert ident is not None
    if not _ID_RE.match(ident):
        r.fail("'id' must be kebab-case (a-z, 0-9, '-')")
    return ident


def _text(key: str) -> _Read:
    def read(r: _Reader, fields: dict[str, Any]) -> str:
        value = r.text(key)
        assert value is not None
        return value

    return read


def _optional_text(key: str) -> _Read:
    return lambda r, fields: r.text(key, required=False)


def _strings(key: str, *, required: bool = False) -> _Read:
    return lambda r, fields: r.strings(key, required=required)


def _since(key: str) -> _Read:
    return lambda r, fields: r.version(key)


def _optional_version(key: str) -> _Read:
    return lambda r, fields: r.version(key, required=False)


def _until(key: str, since: str) -> _Read:
    """The end of a version range, later than its start ``since`` read before it."""

    def read(r: _Reader, fields: dict[str, Any]) -> Version | None:
        until = r.version(key, required=False)
        _check_range(r, fields[since], until)
        return until

    return read


def _choice(key: str, choices: Iterable[str], default: str | None = None) -> _Read:
    return lambda r, fields: r.choice(key, choices, default)


def _qualified_names(pattern: re.Pattern[str], language: str) -> _Read:
    def read(r: _Reader, fields: dict[str, Any]) -> tuple[str, ...]:
        names = r.strings("names", required=True)
        for name in names:
            if not pattern.match(name):
                r.fail(f"name {name!r} is not a qualified {language} name")
        return names

    return read


_reference: _Read = lambda r, fields: r.reference()  # noqa: E731
_evidence: _Read = lambda r, fields: r.evidence()  # noqa: E731
_when: _Read = lambda r, fields: _parse_conditions(r, fields["names"])  # noqa: E731

# ----------------------------------------------------------------- op ([[op]], both catalogs)


def _op_kind(r: _Reader, fields: dict[str, Any]) -> str:
    return r.choice("kind", TORCH_KINDS if fields["framework"] == "torch" else KINDS)


def _device(r: _Reader, fields: dict[str, Any]) -> str:
    devices = TORCH_DEVICES if fields["framework"] == "torch" else TF_DEVICES
    return r.choice("device", devices, "any")


def _op_names(r: _Reader, fields: dict[str, Any]) -> tuple[str, ...]:
    framework = fields["framework"]
    pattern = _TORCH_NAME_RE if framework == "torch" else _TF_NAME_RE
    return _qualified_names(pattern, framework)(r, fields)


def _runtime(r: _Reader, fields: dict[str, Any]) -> tuple[str, ...]:
    runtime = r.strings("runtime")
    for tag in runtime:
        if tag not in RUNTIME_TAGS:
            r.fail(f"unknown runtime tag {tag!r}")
    return runtime


def _fixed_by(r: _Reader, fields: dict[str, Any]) -> tuple[str, ...]:
    fixed_by = r.strings("fixed_by")
    for flag in fixed_by:
        if flag not in _FIXED_BY_FIXED and not _FIXED_BY_ENV_RE.match(flag):
            r.fail(f"unknown 'fixed_by' value {flag!r}")
    if fixed_by and fields["kind"] != "deterministic-with-flag":
        r.fail("'fixed_by' only applies to kind 'deterministic-with-flag'")
    return fixed_by


def _doc_names(r: _Reader, fields: dict[str, Any]) -> tuple[str, ...]:
    doc_names = r.strings("doc_names")
    if fields["source"] == "docstring" and not doc_names:
        r.fail("source 'docstring' needs 'doc_names' (the names as the docstring spells them)")
    if fields["source"] != "docstring" and doc_names:
        r.fail("'doc_names' only applies to source 'docstring'")
    return doc_names


_OP: Final = _EntryKind("op", OpEntry, (
    ("id", _ident),
    ("kind", _op_kind),
    ("names", _op_names),
    ("since", _since("since")),
    ("until", _until("until", "since")),
    ("device", _device),
    ("runtime", _runtime),
    ("fixed_by", _fixed_by),
    ("source", _choice("source", {"docstring", "other"}, "other")),
    ("doc_names", _doc_names),
    ("reference", _reference),
    ("backward_only", lambda r, f: r.boolean("backward_only")),
    ("exact_result", lambda r, f: r.boolean("exact_result")),
    ("when", _when),
    ("alternative", _optional_text("alternative")),
    ("doc_match", _optional_text("doc_match")),
    ("evidence", _evidence),
    ("notes", _optional_text("notes")),
))


def _parse_ops(
    catalog: str, framework: Literal["torch", "tf"], data: Mapping[str, Any]
) -> tuple[OpEntry, ...]:
    raw_ops = data.get("op", [])
    if not isinstance(raw_ops, list):
        raise CatalogError(f"catalog {catalog!r}: 'op' must be an array of tables ([[op]])")
    ops = tuple(
        _parse_entry(_OP, catalog, raw, i, framework=framework) for i, raw in enumerate(raw_ops)
    )
    _check_unique(catalog, "op", (op.id for op in ops))
    return ops


def _check_unique(catalog: str, what: str, ids: Iterable[str]) -> None:
    seen: set[str] = set()
    for ident in ids:
        if ident in seen:
            raise CatalogError(f"catalog {catalog!r}: {what} {ident!r}: duplicate id")
        seen.add(ident)


def _check_header(catalog: str, data: Mapping[str, Any], framework: str) -> None:
    if data.get("schema") != 1:
        raise CatalogError(f"catalog {catalog!r}: expected 'schema = 1'")
    if data.get("framework") != framework:
        raise CatalogError(f"catalog {catalog!r}: expected 'framework = \"{framework}\"'")


def _also_affects(r: _Reader, fields: dict[str, Any]) -> tuple[str, ...]:
    also = r.strings("also_affects")
    for name in (*fields["ops"], *also):
        if not _TORCH_NAME_RE.match(name):
            r.fail(f"name {name!r} is not a qualified torch name")
    return also


_CUBLAS: Final = _EntryKind("cublas", CublasFacts, (
    ("ops", _strings("ops", required=True)),
    ("also_affects", _also_affects),
    ("required_since", _since("required_since")),
    ("required_until", _until("required_until", "required_since")),
    ("env", _text("env")),
    ("min_cuda", _text("min_cuda")),
    ("set_before", _text("set_before")),
    ("accepted", _strings("accepted", required=True)),
    ("reference", _reference),
    ("evidence", _evidence),
    ("notes", _optional_text("notes")),
))


@dataclass(frozen=True)
class TorchCatalog:
    ops: tuple[OpEntry, ...]
    cublas: CublasFacts


@dataclass(frozen=True)
class TfCatalog:
    ops: tuple[OpEntry, ...]
    settings: tuple[TfSetting, ...]
    flags: tuple[TfFlag, ...]


def parse_torch_catalog(data: Mapping[str, Any], *, catalog: str = "nondeterministic_ops") -> TorchCatalog:
    """Validate a parsed ``nondeterministic_ops.toml``; raises :class:`CatalogError`."""
    _check_header(catalog, data, "torch")
    allowed = {"schema", "framework", "cublas", "op"}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise CatalogError(f"catalog {catalog!r}: unknown top-level key(s) {', '.join(unknown)}")
    if "cublas" not in data:
        raise CatalogError(f"catalog {catalog!r}: missing [cublas] table")
    return TorchCatalog(
        ops=_parse_ops(catalog, "torch", data),
        cublas=_parse_entry(_CUBLAS, catalog, data["cublas"]),
    )


def _setting_when(r: _Reader, fields: dict[str, Any]) -> tuple[ArgCondition, ...]:
    when = _parse_conditions(r, fields["names"])
    if fields["form"] == "call" and not when:
        r.fail("form 'call' needs a 'when' condition (what makes the call nondeterministic)")
    return when


def _setting_value(r: _Reader, fields: dict[str, Any]) -> Literal_:
    if fields["form"] == "assign":
        if "value" not in r.table:
            r.fail("form 'assign' needs 'value' (the assigned value that is nondeterministic)")
        return _literal(r, r.table["value"], "value")
    if "value" in r.table:
        r.fail("'value' only applies to form 'assign'")
    return None


def _overridden_since(r: _Reader, fields: dict[str, Any]) -> Version | None:
    overridden_since = r.version("overridden_since", required=False)
    if bool(fields["overridden_by"]) != (overridden_since is not None):
        r.fail("'overridden_by' and 'overridden_since' go together")
    return overridden_since


_SETTING: Final = _EntryKind("setting", TfSetting, (
    ("id", _ident),
    ("form", _choice("form", {"call", "assign", "use"})),
    ("names", _qualified_names(_TF_NAME_RE, "tensorflow/keras")),
    ("since", _since("since")),
    ("until", _until("until", "since")),
    ("when", _setting_when),
    ("value", _setting_value),
    ("overridden_by", _strings("overridden_by")),
    ("overridden_since", _overridden_since),
    ("reference", _reference),
    ("alternative", _optional_text("alternative")),
    ("evidence", _evidence),
    ("notes", _optional_text("notes")),
))


def _flag_name(r: _Reader, fields: dict[str, Any]) -> str:
    name = r.text("name")
    assert name is not None
    if fields["form"] == "call" and not _TF_NAME_RE.match(name):
        r.fail(f"name {name!r} is not a qualified tensorflow name")
    if fields["form"] == "env" and not re.fullmatch(r"[A-Z][A-Z0-9_]*", name):
        r.fail(f"env name {name!r} must be an environment variable name")
    return name


def _flag_values(r: _Reader, fields: dict[str, Any]) -> tuple[str, ...]:
    values = r.strings("values")
    if fields["form"] == "env" and not values:
        r.fail("form 'env' needs 'values' (the values that turn it on)")
    return values


_FLAG: Final = _EntryKind("flag", TfFlag, (
    ("id", _ident),
    ("form", _choice("form", {"call", "env"})),
    ("name", _flag_name),
    ("values", _flag_values),
    ("honoured_since", _since("honoured_since")),
    ("honoured_until", _until("honoured_until", "honoured_since")),
    ("reference", _reference),
    ("deprecated_since", _optional_version("deprecated_since")),
    ("covers", lambda r, f: r.text("covers", required=False) or ""),
    ("evidence", _evidence),
    ("notes", _optional_text("notes")),
))


def parse_tf_catalog(data: Mapping[str, Any], *, catalog: str = "tf") -> TfCatalog:
    """Validate a parsed ``tf.toml``; raises :class:`CatalogError`."""
    _check_header(catalog, data, "tf")
    allowed = {"schema", "framework", "op", "setting", "flag"}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise CatalogError(f"catalog {catalog!r}: unknown top-level key(s) {', '.join(unknown)}")
    for key in ("setting", "flag"):
        if not isinstance(data.get(key, []), list):
            raise CatalogError(f"catalog {catalog!r}: '{key}' must be an array of tables")
    settings = tuple(_parse_entry(_SETTING, catalog, s, i) for i, s in enumerate(data.get("setting", [])))
    flags = tuple(_parse_entry(_FLAG, catalog, f, i) for i, f in enumerate(data.get("flag", [])))
    _check_unique(catalog, "setting", (s.id for s in settings))
    _check_unique(catalog, "flag", (f.id for f in flags))
    return TfCatalog(ops=_parse_ops(catalog, "tf", data), settings=settings, flags=flags)


# --------------------------------------------------------------------------- loading


@functools.lru_cache(maxsize=1)
def _torch_catalog() -> TorchCatalog:
    return parse_torch_catalog(load_catalog("nondeterministic_ops"))


@functools.lru_cache(maxsize=1)
def _tf_catalog() -> TfCatalog:
    return parse_tf_catalog(load_catalog("tf"))


def load_torch_ops() -> tuple[OpEntry, ...]:
    """Every PyTorch op entry, all versions."""
    return _torch_catalog().ops


def load_cublas() -> CublasFacts:
    """The ``CUBLAS_WORKSPACE_CONFIG`` facts."""
    return _torch_catalog().cublas


def load_tf_ops() -> tuple[OpEntry, ...]:
    """Every TensorFlow/Keras op entry, all versions."""
    return _tf_catalog().ops


def load_tf_settings() -> tuple[TfSetting, ...]:
    """TensorFlow settings and constructs that are nondeterministic."""
    return _tf_catalog().settings


def load_tf_flags() -> tuple[TfFlag, ...]:
    """Ways of enabling TensorFlow op determinism and the versions honouring them."""
    return _tf_catalog().flags


def entries_for_torch(version: str | Version) -> tuple[OpEntry, ...]:
    """The PyTorch entries that hold for ``version`` (e.g. ``"2.13.0+cpu"``)."""
    v = as_version(version)
    return tuple(op for op in load_torch_ops() if op.holds_for(v))


def entries_for_tf(version: str | Version) -> tuple[OpEntry, ...]:
    """The TensorFlow entries that hold for ``version``."""
    v = as_version(version)
    return tuple(op for op in load_tf_ops() if op.holds_for(v))




@functools.lru_cache(maxsize=1)
def _name_index() -> Mapping[str, tuple[OpEntry, ...]]:
    index: dict[str, list[OpEntry]] = {}
    for op in (*load_torch_ops(), *load_tf_ops()):
        for name in op.names:
            index.setdefault(name, []).append(op)
    return {name: tuple(ops) for name, ops in index.items()}


def lookup(qualified_name: str, version: str | Version | None = None) -> list[OpEntry]:
    """Entries called by ``qualified_name``, optionally only those holding for ``version``.

    A name can match several entries (versions that changed behaviour; one op
    behaving differently per argument, such as ``put_`` with ``accumulate``). Rules
    evaluate :meth:`OpEntry.match_call` on each and, when more than one matches,
    report the ``raises`` one (it is the more severe finding).
    """
    entries = _name_index().get(normalize_name(qualified_name), ())
    if version is None:
        return list(entries)
    v = as_version(version)
    return [op for op in entries if op.holds_for(v)]
