"""Data model of the op catalogs: versions, argument conditions and entries.

The frozen dataclasses that :mod:`reprolint.catalog.ops` builds from
``rules/nondeterministic_ops.toml`` and ``rules/tf.toml``, and the tiny version
comparator they use (``packaging`` is not a dependency).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal, Mapping, Sequence, Union

__all__ = [
    "MISSING",
    "UNKNOWN",
    "ArgCondition",
    "CublasFacts",
    "Literal_",
    "OpEntry",
    "TfFlag",
    "TfSetting",
    "Version",
    "as_version",
    "normalize_name",
    "parse_version",
]

# --------------------------------------------------------------------------- versions

Version = tuple[int, int, int]

_VERSION_RE: Final = re.compile(r"^\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?")


def parse_version(text: str) -> Version:
    """Parse ``"2.13"``, ``"2.13.0+cpu"``, ``"2.1.0a0+git49444c3"`` into ``(2, 13, 0)``.

    Pre-release and local suffixes are dropped on purpose: a nightly ``2.14.0.dev``
    behaves like 2.14 for catalog purposes, which is what a user running it expects.
    Raises :class:`ValueError` for text that does not start with a number.
    """
    match = _VERSION_RE.match(text)
    if match is None:
        raise ValueError(f"not a version: {text!r}")
    major, minor, patch = (int(g) if g is not None else 0 for g in match.groups())
    return (major, minor, patch)


def as_version(version: str | Version) -> Version:
    return parse_version(version) if isinstance(version, str) else version

# --------------------------------------------------------------------------- conditions

Literal_ = Union[str, int, float, bool, None]


class _Unknown:
    """Marker for an argument whose value is not a literal at the call site."""

    _instance: _Unknown | None = None

    def __new__(cls) -> _Unknown:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Final = _Unknown()
"""Pass this for an argument that is present but not a literal (a variable, a call)."""

MISSING: Final = object()

Predicate = Literal["in", "not_in", "equals", "present"]


@dataclass(frozen=True)
class ArgCondition:
    """One argument condition; an entry holds for a call when all its conditions do.

    ``predicate`` is one of ``in`` / ``not_in`` (``values`` is the allowed or the
    excluded set), ``equals`` (``values`` has one element) or ``present`` (``values``
    is ``(True,)`` or ``(False,)``: the argument is given and is not the literal
    ``None``). ``default`` is the value the callee uses when the argument is absent,
    so ``in``/``equals`` can be decided for calls that omit it. ``positions`` pairs a
    qualified name with the 0-based index of the argument in a call of that name
    (``Tensor.*`` methods do not count ``self``); a name missing there matches the
    keyword form only. ``names`` limits the condition to some of the entry's names
    (empty: all of them).
    """

    arg: str
    predicate: Predicate
    values: tuple[Literal_, ...]
    default: Literal_ | object = MISSING
    positions: tuple[tuple[str, int], ...] = ()
    names: tuple[str, ...] = ()

    def position_for(self, name: str) -> int | None:
        """The 0-based position of the argument in a call of ``name``, if positional."""
        for candidate, index in self.positions:
            if candidate == name:
                return index
        return None

    @property
    def has_default(self) -> bool:
        return self.default is not MISSING

    def applies_to(self, name: str) -> bool:
        return not self.names or name in self.names

    def value_in_call(
        self, name: str, args: Sequence[object], kwargs: Mapping[str, object]
    ) -> object:
        """The argument's value in the call, ``MISSING`` when it is not passed."""
        if self.arg in kwargs:
            return kwargs[self.arg]
        position = self.position_for(name)
        if position is not None and position < len(args):
            return args[position]
        return MISSING

    def evaluate(
        self, name: str, args: Sequence[object], kwargs: Mapping[str, object]
    ) -> bool | None:
        """True/False when decidable from literals, None when the value is unknown.

        ``args``/``kwargs`` hold Python literals for literal arguments and
        :data:`UNKNOWN` for anything else. A ``*args``/``**kwargs`` splat at the call
        site makes every absent argument unknown; the caller should then pass
        ``UNKNOWN`` for this condition's argument itself.
        """
        if not self.applies_to(name):
            return True
        value = self.value_in_call(name, args, kwargs)
        if self.predicate == "present":
            want = bool(self.values[0])
            if value is MISSING:
                return not want
            if value is UNKNOWN:
                # A variable may hold None; treat it as present, the common case,
                # but say so: rules decide whether "probably" is enough.
                return None
            return (value is not None) == want
        if value is MISSING:
            if not self.has_default:
                return None
            value = self.default
        if value is UNKNOWN:
            return None
        found = any(_same_literal(value, v) for v in self.values)
        return not found if self.predicate == "not_in" else found  # "in" and "equals"


def _same_literal(a: object, b: object) -> bool:
    """Literal equality that keeps ``True`` and ``1`` apart (Python's ``==`` does not)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


# --------------------------------------------------------------------------- entries


@dataclass(frozen=True)
class OpEntry:
    """One op (or op family) with its behaviour under the framework's determinism flag."""

    id: str
    framework: Literal["torch", "tf"]
    kind: str
    names: tuple[str, ...]
    since: Version
    until: Version | None
    reference: str
    device: str = "any"
    backward_only: bool = False
    # the kernel gives the same result on every run although torch raises under the flag
    # (histc: every atomic add is the same +1, so the counts do not depend on their order)
    exact_result: bool = False
    when: tuple[ArgCondition, ...] = ()
    runtime: tuple[str, ...] = ()
    alternative: str | None = None
    fixed_by: tuple[str, ...] = ()
    source: str = "other"
    doc_names: tuple[str, ...] = ()
    doc_match: str | None = None
    evidence: str = "read"
    notes: str | None = None

    @property
    def fixes(self) -> tuple[str, ...]:
        """What makes a ``deterministic-with-flag`` op deterministic (the framework flag by default)."""
        if self.fixed_by or self.kind != "deterministic-with-flag":
            return self.fixed_by
        if self.framework == "torch":
            return ("torch.use_deterministic_algorithms",)
        return ("tensorflow.config.experimental.enable_op_determinism",)

    @property
    def cuda_only(self) -> bool:
        """True when the op is only a problem on an accelerator (CUDA / TF GPU)."""
        return self.device in ("cuda", "gpu")

    @property
    def rule(self) -> str:
        """The rule code that reports this entry."""
        if self.framework == "tf":
            return "RPL204"
        return "RPL202" if self.kind == "raises" else "RPL201"

    def holds_for(self, version: str | Version) -> bool:
        """Whether this entry describes ``version`` (``since <= version < until``)."""
        v = as_version(version)
        return self.since <= v and (self.until is None or v < self.until)

    def match_call(
        self, name: str, args: Sequence[object] = (), kwargs: Mapping[str, object] | None = None
    ) -> bool | None:
        """Whether a call of ``name`` with these arguments meets every ``when`` condition.

        Returns True (all conditions hold), False (one fails) or None (none fails but
        at least one depends on a non-literal value). ``name`` must be one of
        :attr:`names` (after :func:`normalize_name`).
        """
        name = normalize_name(name)
        if name not in self.names:
            return False
        kwargs = kwargs or {}
        result: bool | None = True
        for condition in self.when:
            outcome = condition.evaluate(name, args, kwargs)
            if outcome is False:
                return False
            if outcome is None:
                result = None
        return result


@dataclass(frozen=True)
class CublasFacts:
    """When deterministic mode needs ``CUBLAS_WORKSPACE_CONFIG`` (RPL303)."""

    env: str
    accepted: tuple[str, ...]
    min_cuda: str
    ops: tuple[str, ...]
    also_affects: tuple[str, ...]
    required_since: Version
    required_until: Version | None
    set_before: str
    reference: str
    evidence: str
    notes: str | None

    def required_for(self, version: str | Version) -> bool:
        """True when torch ``version`` raises on cuBLAS ops without the variable."""
        v = as_version(version)
        return self.required_since <= v and (
            self.required_until is None or v < self.required_until
        )


@dataclass(frozen=True)
class TfSetting:
    """A TensorFlow construct or setting that makes runs nondeterministic."""

    id: str
    form: Literal["call", "assign", "use"]
    names: tuple[str, ...]
    since: Version
    until: Version | None
    reference: str
    when: tuple[ArgCondition, ...] = ()
    value: Literal_ = None
    overridden_by: tuple[str, ...] = ()
    overridden_since: Version | None = None
    alternative: str | None = None
    evidence: str = "read"
    notes: str | None = None

    def holds_for(self, version: str | Version) -> bool:
        v = as_version(version)
        return self.since <= v and (self.until is None or v < self.until)


@dataclass(frozen=True)
class TfFlag:
    """A way of turning TensorFlow op determinism on, with the versions that honour it."""

    id: str
    form: Literal["call", "env"]
    name: str
    honoured_since: Version
    honoured_until: Version | None
    reference: str
    values: tuple[str, ...] = ()
    deprecated_since: Version | None = None
    covers: str = ""
    evidence: str = "read"
    notes: str | None = None

    def honoured_by(self, version: str | Version) -> bool:
        v = as_version(version)
        return self.honoured_since <= v and (
            self.honoured_until is None or v < self.honoured_until
        )

    def deprecated_in(self, version: str | Version) -> bool:
        return self.deprecated_since is not None and as_version(version) >= self.deprecated_since


# --------------------------------------------------------------------------- validation


def normalize_name(name: str) -> str:
    """Map the spellings of a name to the catalog's: ``torch.Tensor.X`` -> ``Tensor.X``;
    a Keras 2 layer by its module (:func:`keras_layer_name`).

    (``tf.``/``nn.``/``F.`` aliases are resolved from the imports by the analysis
    layer; the catalog only ever stores full import paths.)
    """
    if name.startswith("torch.Tensor."):
        return name[len("torch.") :]
    return keras_layer_name(name)


# Keras 2's spellings of a layer besides ``keras.layers.X``: the modules that define them
# (``keras.layers.convolutional.Conv2D``, ``keras.layers.core.Dense``,
# ``keras.layers.recurrent.LSTM``...: Keras 2.0-2.3 and tf.keras re-export each class
# from ``keras.layers``), and the Keras 1 names Keras 2 keeps as aliases
# (keras/layers/convolutional.py: ``Convolution2D = Conv2D``...).
_KERAS_LAYER_ROOTS = ("keras.layers.", "tensorflow.keras.layers.")
_KERAS_LAYER_ALIASES = {
    "Convolution1D": "Conv1D", "Convolution2D": "Conv2D", "Convolution3D": "Conv3D",
    "Deconvolution2D": "Conv2DTranspose", "Deconvolution3D": "Conv3DTranspose",
    "SeparableConvolution2D": "SeparableConv2D", "AtrousConvolution1D": "Conv1D", "AtrousConvolution2D": "Conv2D",
}


def keras_layer_name(name: str) -> str:
    """``keras.layers.convolutional.Convolution2D`` -> ``keras.layers.Conv2D``: a Keras
    layer class named through the module that defines it, or by its Keras 1 alias, under
    the name the catalogs store. Anything else is returned as it is."""
    root = next((r for r in _KERAS_LAYER_ROOTS if name.startswith(r)), None)
    if root is None:
        return name
    parts = name[len(root):].split(".")
    if len(parts) == 2 and parts[0].islower() and parts[1][:1].isupper():
        parts = parts[1:]  # `convolutional.Conv2D`
    if len(parts) != 1:
        return name
    return root + _KERAS_LAYER_ALIASES.get(parts[0], parts[0])
