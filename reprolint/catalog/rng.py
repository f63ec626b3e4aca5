"""Typed view of ``rules/rng.toml``: seeders, global draws, RNG instances, entropy sources."""

from __future__ import annotations

import functools
import importlib.metadata
from dataclasses import dataclass
from typing import Any, Optional, Union

from reprolint.catalog import CatalogError, load_catalog
from reprolint.catalog.op_entries import keras_layer_name

__all__ = [
    "ArgCondition",
    "DrawApi",
    "InstanceApi",
    "RngCatalog",
    "SeederApi",
    "keras_major",
    "old_keras_library",
    "tf1_keras_library",
    "rng_catalog",
]

Literal = Union[None, bool, int, float, str]


@dataclass(frozen=True)
class ArgCondition:
    """An argument of a call, by keyword and/or position, and the literal values that count."""

    keyword: str
    position: Optional[int] = None
    default: Literal = None
    values: Optional[tuple[Literal, ...]] = None  # `in = [...]`; None: presence is enough
    excluded: Optional[tuple[Literal, ...]] = None  # `not_in = [...]`: these values do not count
    # `value = "keras-initializer"`: how to read a non-literal argument (a Keras initialiser
    # object is compared by its name); see reprolint.analysis.calls.keras; `value =
    # "tf-dtype"`: a dtype (`tf.bool`, `np.int32`, `"int64"`) compared by its name
    value: Optional[str] = None


@dataclass(frozen=True)
class SeederApi:
    api: str
    seeds: tuple[str, ...]
    seed_arg: Optional[int]
    keyword: Optional[str]
    entropy_without_seed: bool
    none_unseeds: bool = False  # given None it leaves the library unseeded (TF's global seed)
    # entropy_without_seed holds only before this version of entropy_until_library
    entropy_until: Optional[str] = None
    entropy_until_library: Optional[str] = None


@dataclass(frozen=True)
class DrawApi:
    api: str
    library: str
    kind: str
    deferred: bool
    unless: tuple[ArgCondition, ...]
    when: tuple[ArgCondition, ...]
    method: bool = False
    requires: Optional[str] = None
    # `input = "keras-fit"`: the call draws only for the input it is given; see
    # reprolint.analysis.calls.keras
    input: Optional[str] = None
    # a deferred draw that runs within the call (a `fit`'s epochs), not through its value
    during_call: bool = False
    # arguments whose presence makes it draw whatever `when` says (`num_classes=10` on a
    # pretrained timm model: a new classifier head, drawn)
    anyway: tuple[ArgCondition, ...] = ()


@dataclass(frozen=True)
class InstanceApi:
    api: str
    library: str
    seed_arg: Optional[int]
    keyword: Optional[str]
    seed_required: bool


def _conditions(raw: Any, where: str) -> tuple[ArgCondition, ...]:
    out = []
    for item in raw or ():
        if not isinstance(item, dict) or "keyword" not in item:
            raise CatalogError(f"rng.toml {where}: each condition needs a `keyword`")
        values, excluded = item.get("in"), item.get("not_in")
        out.append(
            ArgCondition(
                keyword=item["keyword"],
                position=item.get("position"),
                default=item.get("default"),
                values=tuple(values) if values is not None else None,
                excluded=tuple(excluded) if excluded is not None else None,
                value=item.get("value"),
            )
        )
    return tuple(out)


def _check_unverified(entry: dict[str, Any], where: str) -> None:
    """`unverified` names APIs of its own entry (those tests/libraries does not run)."""
    names = set(entry.get("api", ())) | set(entry.get("methods", ()))
    stray = [api for api in entry.get("unverified", ()) if api not in names]
    if stray:
        raise CatalogError(f"rng.toml {where}: `unverified` names APIs not in the entry: {stray}")
    stray = [lib for lib in entry.get("unverified_seeds", ()) if lib not in entry.get("seeds", ())]
    if stray:
        raise CatalogError(f"rng.toml {where}: `unverified_seeds` names libraries it does not seed: {stray}")


def _major(dist: str) -> Optional[int]:
    try:
        return int(importlib.metadata.version(dist).split(".")[0])
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return None


@functools.lru_cache(maxsize=None)
def keras_major(api: str) -> int:
    """The Keras a qualified name runs: ``tf_keras.*`` is Keras 2; ``keras.*`` the installed
    Keras (3 when none is); ``tensorflow.keras.*`` Keras 3 from TensorFlow 2.16 on (the
    installed TensorFlow; the latest when none is), Keras 2 before."""
    if api.startswith("tf_keras."):
        return 2
    if api.startswith("keras."):
        return _major("keras") or 3
    try:
        version = importlib.metadata.version("tensorflow")
    except importlib.metadata.PackageNotFoundError:
        try:
            version = importlib.metadata.version("tensorflow-cpu")
        except importlib.metadata.PackageNotFoundError:
            return 3
    major, minor = (int(p) for p in version.split(".")[:2])
    return 3 if (major, minor) >= (2, 16) else 2


def tf1_keras_library(api: str, library: str) -> str:
    """The generator a Keras draw takes in a TensorFlow 1 program, where the catalog's
    answer (the Keras of today) does not hold: multi-backend Keras (``keras.*``) draws
    the seeds of its initial weights and dropout from NumPy (its backend's
    ``np.random.randint(10e6)`` when given no seed); tf.keras's initialisers follow the
    graph seed, not Python's ``random``, as TF 1's own ``tf.layers`` do; and ``fit`` shuffles arrays with
    ``np.random.shuffle``."""
    if api == ".fit" and library == "tensorflow":
        return "numpy"
    if api.startswith("keras.") and library in ("random", "tensorflow"):
        return "numpy"
    if api.startswith(_TF1_LAYERS) and library == "random":
        return "tensorflow"  # TF 1's own layers (`tf.layers.dense`) take the graph seed too
    return library


# tf.keras and TF 1's layer API (Keras layers under TF 2 up to 2.15, which seed their
# initialisers from Python's `random`; graph-seeded ops under TF 1).
_TF1_LAYERS = ("tensorflow.keras.", "tensorflow.layers.", "tensorflow.compat.v1.layers.")


def old_keras_library(kind: Optional[str], api: str, library: str) -> str:
    """The generator a Keras draw takes under the Keras of the past that ``kind`` names
    (analysis.tf_versions.old_keras): TensorFlow 1's (:func:`tf1_keras_library`),
    multi-backend Keras (before 2.4), which draws its default seeds (initial weights,
    dropout) from NumPy and shuffles ``fit``'s arrays with ``np.random.shuffle`` on any
    backend, or the tf.keras of TensorFlow 2 before 2.11 ("tf2-early"), whose unseeded
    initialisers draw from TensorFlow's global seed (``random_ops`` with ``seed=None``;
    Python's `random` picks them from Keras 2.11 on, the catalog's ``since``)."""
    if kind == "tf1":
        return tf1_keras_library(api, library)
    if kind == "tf2-early" and library == "random" and api.startswith(("keras.", "tensorflow.keras.")):
        return "tensorflow"
    if kind == "multi-backend" and (api.startswith("keras.") or api == ".fit") and library in ("random", "tensorflow"):
        return "numpy"
    return library


def _holds_here(entry: dict[str, Any], api: str) -> bool:
    """An entry with ``keras = N`` holds only for names that run Keras N."""
    return "keras" not in entry or keras_major(api) == int(entry["keras"])


class RngCatalog:
    """Lookups by qualified name; built once per process."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.libraries: dict[str, str] = {
            name: lib["display"] for name, lib in data.get("libraries", {}).items()
        }
        self.seeders: dict[str, SeederApi] = {}
        self.draws: dict[str, DrawApi] = {}
        self.draw_prefixes: list[tuple[str, DrawApi]] = []
        self.method_draws: dict[str, list[DrawApi]] = {}
        self.instances: dict[str, InstanceApi] = {}
        self.entropy: frozenset[str] = frozenset(
            api for entry in data.get("entropy", []) for api in entry["api"]
        )
        for i, entry in enumerate(data.get("seeders", [])):
            _check_unverified(entry, f"seeders[{i}]")
            for api in entry["api"]:
                self.seeders[api] = SeederApi(
                    api=api,
                    seeds=tuple(entry["seeds"]),
                    seed_arg=entry.get("seed_arg"),
                    keyword=entry.get("keyword"),
                    entropy_without_seed=entry.get("entropy_without_seed", False),
                    none_unseeds=entry.get("none_unseeds", False),
                    entropy_until=entry.get("entropy_until"),
                    entropy_until_library=entry.get("entropy_until_library"),
                )
        for i, entry in enumerate(data.get("draws", [])):
            self._check_library(entry, f"draws[{i}]")
            for api in entry["api"]:
                if not _holds_here(entry, api):
                    continue
                draw = DrawApi(
                    api=api,
                    library=entry["library"],
                    kind=entry.get("kind", "draw"),
                    deferred=entry.get("deferred", False),
                    unless=_conditions(entry.get("unless"), f"draws[{i}]"),
                    when=_conditions(entry.get("when"), f"draws[{i}]"),
                    anyway=_conditions(entry.get("anyway"), f"draws[{i}]"),
                )
                if api.endswith(".*"):
                    self.draw_prefixes.append((api[:-1], draw))
                else:
                    self.draws[api] = draw
        for i, entry in enumerate(data.get("method_draws", [])):
            self._check_library(entry, f"method_draws[{i}]")
            for method in entry["methods"]:
                self.method_draws.setdefault(method, []).append(
                    DrawApi(
                        api=method,
                        library=entry["library"],
                        kind=entry.get("kind", "draw"),
                        deferred=entry.get("deferred", False),
                        unless=_conditions(entry.get("unless"), f"method_draws[{i}]"),
                        when=_conditions(entry.get("when"), f"method_draws[{i}]"),
                        method=True,
                        requires=entry["requires"],
                        input=entry.get("input"),
                        during_call=entry.get("during_call", False),
                    )
                )
        for i, entry in enumerate(data.get("instances", [])):
            _check_unverified(entry, f"instances[{i}]")
            for api in entry["api"]:
                self.instances[api] = InstanceApi(
                    api=api,
                    library=entry["library"],
                    seed_arg=entry.get("seed_arg"),
                    keyword=entry.get("keyword"),
                    seed_required=entry.get("seed_required", False),
                )

    def _check_library(self, entry: dict[str, Any], where: str) -> None:
        if entry.get("library") not in self.libraries:
            raise CatalogError(f"rng.toml {where}: unknown library {entry.get('library')!r}")
        for key in ("since", "ref"):
            if key not in entry:
                raise CatalogError(f"rng.toml {where}: missing `{key}`")
        _check_unverified(entry, where)

    @functools.cached_property
    def roots(self) -> frozenset[str]:
        """The top-level modules of the catalogued draws and seeders (`numpy`, `tf`)."""
        return frozenset(api.split(".")[0] for api in (*self.draws, *self.seeders))

    @functools.cached_property
    def entropy_roots(self) -> frozenset[str]:
        """The top-level modules of the catalogued entropy sources (`time`, `os`)."""
        return frozenset(api.split(".")[0] for api in self.entropy)

    def draw(self, qualname: str) -> Optional[DrawApi]:
        found = self.draws.get(qualname)
        if found is not None:
            return found
        layer = keras_layer_name(qualname)  # `keras.layers.convolutional.Conv2D`
        if layer != qualname and layer in self.draws:
            return self.draws[layer]
        for prefix, draw in self.draw_prefixes:
            if qualname.startswith(prefix):
                return draw
        return None

    def display(self, library: str) -> str:
        return self.libraries.get(library, f"{library}'s")


@functools.lru_cache(maxsize=1)
def rng_catalog() -> RngCatalog:
    return RngCatalog(load_catalog("rng"))
