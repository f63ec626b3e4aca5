"""The TensorFlow a program runs on, as the TF rules (RPL204, RPL304) assume it, and
where that came from.

In order: what the project of the program's entry point declares (the nearest
declaration files, :func:`reprolint.analysis.declared.declarations_for`: ``tensorflow``,
``tensorflow-gpu``, ``tensorflow-cpu``, ``tf-nightly``); else what a declared Keras runs
on (after the TF1 API below: multi-backend Keras up to 2.2.5: TensorFlow 1 only; Keras 3:
TensorFlow 2.16 or newer); else the TF1 API the program
calls (``tf.Session``, ``tf.placeholder``, ``tf.contrib.*``...: names TF 2 removed, so
the program runs on TensorFlow 1.x); else the installed TensorFlow, else the newest the
catalog knows. A declared range that admits both TF 1 and TF 2 (``tensorflow>=1.12``)
is narrowed by the TF1 API to its highest 1.x release. TF1 graph code written against
``tf.compat.v1`` runs on TF 2 (and on 1.14/1.15): it is recorded (``compat_v1``) but does
not move the version.

The determinism switches each version has (``rules/tf.toml`` flags, checked against
TensorFlow's release notes and NVIDIA's framework-reproducibility notes):
``tf.config.experimental.enable_op_determinism()`` from 2.8; ``TF_DETERMINISTIC_OPS=1``
from 2.1 (deprecated, still read, from 2.8); in 1.14, 1.15 and 2.0 only
``TF_CUDNN_DETERMINISTIC=1`` (cuDNN convolution and max-pooling algorithms; bias_add's
gradient stays nondeterministic without NVIDIA's patch); nothing in stock TensorFlow
before 1.14.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any, Optional

from reprolint.analysis.declared import assume, declarations_for, spec_admits
from reprolint.analysis.usage_events import EnvSet, KerasFit, TfApi, TrainStep

__all__ = [
    "TF1_LAST", "TfAssumed", "TfSwitch", "keras_backend", "old_keras", "program_tf", "tf_switch", "trains_tf_kernels",
]

TF1_LAST = "1.15.0"  # the last TensorFlow 1 release: what "TF 1.x" is looked up as


def old_keras(calls_tf1_api: bool, entry: str, roots: Any, multi_backend_api: bool = False) -> Optional[str]:
    """Which Keras of the past a program's Keras draws follow, from what it calls and
    what its project declares (catalog.rng.old_keras_library says where they draw):
    "tf1" when it calls the TF 1 API or declares TensorFlow 1 only (``tensorflow==1.15``,
    ``tensorflow-gpu<2``); "multi-backend" when it declares a Keras before 2.4 only (the
    multi-backend Keras, on TensorFlow 2 too) or calls the API only multi-backend Keras up
    to 2.2.5 has (``multi_backend_api``: ``K.image_dim_ordering()``); "tf2-early" when it
    declares a TensorFlow 2 before 2.11 only (``tensorflow==2.0.1``), whose Keras draws
    initial weights from TensorFlow's seed; None for the Keras of today."""
    if calls_tf1_api:
        return "tf1"
    found = declarations_for(entry, roots)
    if _declared_below(found, "tensorflow", (2, 0)):
        return "tf1"
    if multi_backend_api or _declared_below(found, "keras", (2, 4)):
        return "multi-backend"
    if _declared_below(found, "tensorflow", (2, 11)):
        return "tf2-early"
    return None


def _declared_below(found: list[Any], library: str, release: tuple[int, int]) -> bool:
    """Whether ``library`` is declared with a version, and every version it admits is
    older than ``release``."""
    from reprolint.catalog.ops import parse_version

    for declared in found:
        if declared.library != library or not spec_admits(declared.spec, None):
            continue
        newest = assume(library, None, [declared], "999.0.0", "")  # the range's own bound
        if not newest.declared or spec_admits(declared.spec, ".".join(map(str, release)) + ".0"):
            return False
        return parse_version(newest.version)[:2] < release
    return False


@dataclass(frozen=True)
class TfAssumed:
    """The TensorFlow a program is taken to run on."""

    version: str  # what the catalog is asked with ("1.15.0" for an unknown 1.x)
    label: str  # "TensorFlow 1.15", "TensorFlow 1.x", "TensorFlow 2.21"
    source: str  # "declared in requirements.txt as `tensorflow==1.15`", ...
    kind: str  # "declared", "keras-declared", "tf1-api", "installed", "catalog", "configured"
    compat_v1: Optional[str] = None  # "`tf.compat.v1.Session`, train.py line 6": TF1 graph code on TF 2

    @property
    def major(self) -> int:
        return int(self.version.split(".")[0])

    @property
    def release_known(self) -> bool:
        """Whether the label names a release (``TensorFlow 1.15``), not only a major
        version (``TensorFlow 1.x``): what a message may claim of switches that came
        with a minor release (``TF_CUDNN_DETERMINISTIC`` in 1.14, ``enable_op_determinism``
        in 2.8) depends on it."""
        return not self.label.split(" ", 1)[1].split(" ")[0].endswith(".x")

    def phrase(self) -> str:
        """``TensorFlow 1.15, declared in requirements.txt as `tensorflow==1.15```."""
        return f"{self.label}, {self.source}"

    def to_data(self) -> dict[str, str]:
        data = {"library": "tensorflow", "version": self.label.split(" ", 1)[1].split(" ")[0], "source": self.source, "kind": self.kind}
        if self.compat_v1:
            data["compat_v1"] = self.compat_v1
        return data


@dataclass(frozen=True)
class TfSwitch:
    """What a TensorFlow version offers to make its GPU kernels deterministic."""

    kind: str  # "call" (enable_op_determinism), "env" (TF_DETERMINISTIC_OPS)
    advice: str  # for messages
    lines: tuple[str, ...]  # what a fix inserts ("{tf}" / "{os}": the names the module binds)


def tf_switch(assumed: TfAssumed) -> Optional[TfSwitch]:
    """The op-determinism switch the assumed TensorFlow honours (``rules/tf.toml``'s
    flags), None before TF 2.1."""
    from reprolint.catalog import ops as catalog_ops

    version = catalog_ops.parse_version(assumed.version)
    if version >= (2, 8, 0):
        # a TensorFlow 2 of unknown release may be 2.1-2.7, which has only the variable
        older = "" if assumed.release_known else " (TF 2.8 on; on 2.1-2.7 set `TF_DETERMINISTIC_OPS=1` instead)"
        return TfSwitch(
            "call", f"call `tf.config.experimental.enable_op_determinism()` at its start{older}",
            ("{tf}.config.experimental.enable_op_determinism()",),
        )
    if version >= (2, 1, 0):
        return TfSwitch(
            "env", "set `TF_DETERMINISTIC_OPS=1` before its first op (TF 2.1-2.7; "
            "`enable_op_determinism()` only exists from 2.8)",
            ('{os}.environ["TF_DETERMINISTIC_OPS"] = "1"',),
        )
    # before 2.1 stock TensorFlow has no op-determinism switch (`TF_CUDNN_DETERMINISTIC`
    # covers cuDNN only: RPL204 reports those kernels op by op)
    return None


def _tf1_call(program: Any, tf1: bool, old_keras: bool = False) -> Optional[str]:
    """"`tf.Session`, train.py line 6" for the program's first TF1 API call of that kind
    (``old_keras``: of the multi-backend Keras API that runs on TF 1 only)."""
    for _, path, usage in program.of(TfApi, default_only=False):
        if usage.tf1 is tf1 and usage.old_keras is old_keras:
            name = PurePosixPath(path).name
            if name.endswith(".ipynb"):
                # the analysis sees a notebook as its cells joined: that line is no line of
                # a cell, so only the notebook is named
                return f"`{usage.text}`, {name}"
            return f"`{usage.text}`, {name} line {usage.span.start_line}"
    return None


def program_tf(ctx: Any, program: Any) -> TfAssumed:
    """The TensorFlow ``program`` runs on (see the module docstring); memoised per
    entry point."""
    memo = ctx.memo.setdefault("tf_by_entry", {})
    entry = program.entry
    assumed = memo.get(entry)
    if assumed is None:
        assumed = memo[entry] = _assume(ctx, program)
    return assumed


def _assume(ctx: Any, program: Any) -> TfAssumed:
    from reprolint.analysis.determinism import default_tf_source, default_tf_version, short
    from reprolint.catalog.ops import parse_version

    tf1 = _tf1_call(program, True)
    keras_tf1 = _tf1_call(program, True, old_keras=True)
    compat = _tf1_call(program, False)
    # what says the program runs on TF 1 only, for "narrowed to 1.x by ..." and "from ...":
    # the TF1 API it calls, else the API only multi-backend Keras up to 2.2.5 has
    old_keras_api = (
        f"{keras_tf1}, which only multi-backend Keras up to 2.2.5 has (it runs on TensorFlow 1 only)"
        if keras_tf1 is not None else None
    )
    fallback = default_tf_version()
    fallback_kind = "installed" if default_tf_source() == "installed" else "catalog"
    fallback_source = "installed" if fallback_kind == "installed" else "the newest catalogued, nothing declared"
    configured = getattr(ctx.settings, "tf_version", None)
    if configured:
        return TfAssumed(configured, f"TensorFlow {short(configured)}", "configured", "configured", compat)
    found = declarations_for(program.entry, ctx.index.roots)
    declared = next((d for d in found if d.library == "tensorflow" and spec_admits(d.spec, None) is not None), None)
    unversioned = next((d for d in found if d.library == "tensorflow" and spec_admits(d.spec, None) is None), None)
    if unversioned is not None and fallback_kind == "catalog":
        fallback_source = f"the newest catalogued; `{unversioned.written}` in {unversioned.source} states no version"
    if declared is not None:
        written = f"`{declared.written}` in {declared.source}"
        by = f"the TF1 API it calls ({tf1})" if tf1 is not None else old_keras_api
        if by is not None and spec_admits(declared.spec, TF1_LAST) and spec_admits(declared.spec, "2.0.0"):
            # a range open to TF 1 and TF 2, and code only TF 1 runs
            return TfAssumed(
                TF1_LAST, "TensorFlow 1.x", f"declared as {written}, narrowed to 1.x by {by}", "declared", compat,
            )
        result = assume("tensorflow", None, [declared], fallback, fallback_source)
        if result.declared:
            version = _released(result.version)
            return TfAssumed(version, f"TensorFlow {short(version)}", f"declared as {written}", "declared", compat)
        source = f"{fallback_source.split(',')[0].split(';')[0]}, which {written} admits"
        return TfAssumed(result.version, _label(result.version, fallback_kind), source, fallback_kind, compat)
    source = f"the TF1 API this program calls ({tf1})" if tf1 is not None else old_keras_api
    if source is not None:
        return TfAssumed(TF1_LAST, "TensorFlow 1.x", f"from {source}", "tf1-api", compat)
    # the TF1 API it calls is direct evidence; a declared Keras only says what it admits
    keras = next((d for d in found if d.library == "keras" and spec_admits(d.spec, None)), None)
    if keras is not None and (program.uses("keras") or program.has(KerasFit, default_only=False)):
        # (only for a program that runs Keras: one that only feeds data with tf.data says
        # nothing about the TensorFlow a Keras backend needs)
        # the TensorFlow a declared Keras runs on: multi-backend Keras up to 2.2.5 supports
        # TensorFlow 1 only (keras.io, "Multi-backend Keras and tf.keras"); Keras 3's
        # TensorFlow backend needs TensorFlow 2.16 (keras-team/keras README)
        written = f"`{keras.written}` in {keras.source}"
        # the release the declaration stands for (a pin, else its upper bound, else its
        # lower bound), as for torch
        stands = parse_version(assume("keras", None, [keras], "0.0.0", "").version)
        if stands < (2, 3, 0):
            return TfAssumed(
                TF1_LAST, "TensorFlow 1.x",
                f"from {written} (multi-backend Keras up to 2.2.5 runs on TensorFlow 1 only)", "keras-declared", compat,
            )
        if stands >= (3, 0, 0):
            version = fallback if parse_version(fallback) >= (2, 16, 0) else "2.16.0"
            label = "TensorFlow 2.16 or newer" if version == "2.16.0" else f"TensorFlow {short(version)}"
            return TfAssumed(
                version, label, f"from {written} (Keras 3's TensorFlow backend needs TensorFlow 2.16)",
                "keras-declared", compat,
            )
    return TfAssumed(fallback, _label(fallback, fallback_kind), fallback_source, fallback_kind, compat)


def _released(version: str) -> str:
    """A range's bound as a TensorFlow release: ``<2.0`` stands for 1.15, the last TF 1."""
    from reprolint.catalog.ops import parse_version

    major, minor, _ = parse_version(version)
    return TF1_LAST if major == 1 and minor > 15 else version


def _label(version: str, kind: str) -> str:
    """``TensorFlow 2.15`` (installed), ``TensorFlow 2.x`` for the newest catalogued: the
    catalog's answers hold from its newest entry on, no release is known."""
    from reprolint.analysis.determinism import short

    return f"TensorFlow {version.split('.')[0]}.x" if kind == "catalog" else f"TensorFlow {short(version)}"


def keras_backend(program: Any) -> Optional[str]:
    """The Keras backend the program selects with ``KERAS_BACKEND`` (``"jax"``,
    ``"torch"``, ``"tensorflow"``...; Keras 3, and multi-backend Keras 2 for ``theano``/
    ``cntk``), None when it sets none or its value is not visible. A program that builds
    its Keras model with Theano's own ops (``import theano.tensor as T`` in a layer) and
    imports no TensorFlow runs multi-backend Keras on Theano: ``"theano"``."""
    for _, _, env in program.of(EnvSet, "KERAS_BACKEND", default_only=False):
        if env.value is not None:
            return str(env.value).strip().lower()
    if program.uses("theano") and not program.uses("tensorflow"):
        return "theano"
    return None


def trains_tf_kernels(program: Any) -> bool:
    """A TensorFlow training step runs (as :meth:`Program.trains_with` ``"tf"``), not
    counting Keras ``fit`` calls when the program selects another Keras backend
    (``KERAS_BACKEND="jax"``: Keras 3 trains with JAX's kernels, not TensorFlow's)."""
    backend = keras_backend(program)
    if backend in (None, "tensorflow"):
        return bool(program.trains_with("tf"))
    fits = {(path, usage.span) for _, path, usage in program.of(KerasFit, default_only=False)}
    for step in program.usage_steps:
        usage = step.event
        if type(usage) is not TrainStep or usage.name != "tf" or step.context.uncalled:
            continue
        if (step.path, usage.span) not in fits and program.on_default_path(step):
            return True
    return False


