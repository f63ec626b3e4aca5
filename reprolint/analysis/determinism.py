"""Program-level view of the op, flag and order facts, and the versions the rules assume.

:func:`program_usages` gives every program of a check and every library module no
program imports (as a program of its own), all walked once by
:mod:`reprolint.analysis.execution`; the questions about a program (does it use CUDA by
default, is deterministic mode on) are methods of
:class:`reprolint.analysis.program.Program`. Which catalog entry an op call matches,
and the versions the rules assume, live here, so that each rule module only words its
finding.
"""

from __future__ import annotations

import functools
import importlib.metadata
from pathlib import PurePosixPath
from dataclasses import dataclass
from typing import Any, Optional

from reprolint.catalog import ops as catalog_ops
from reprolint.analysis.context import CheckContext
from reprolint.analysis.facts import UNKNOWN
from reprolint.analysis.values import OptionRef
from reprolint.analysis.program import Program
from reprolint.analysis.usage_events import EnvSet, FlagSet, OpCall

__all__ = [
    "OpMatch",
    "ProgramUsage",
    "match_op",
    "op_names",
    "program_usages",
    "tensor_method_names",
    "tf_version",
    "default_tf_source",
    "default_tf_version",
    "program_torch",
    "torch_version",
]

# Tensor methods whose names other libraries also use (`queue.put`, `ax.scatter`,
# `df.cumsum`, `np.ndarray.cumsum`): matched only through `torch.X(...)`, or with a
# torch-only keyword (see `_TORCH_ONLY_KEYWORDS`).
_AMBIGUOUS_METHODS = frozenset({"put", "scatter", "cumsum", "median", "bmm", "resize_", "__getitem__"})
_TORCH_ONLY_KEYWORDS = {"cumsum": "dim", "median": "dim"}

# Runtime facts a static check cannot decide (rules/README.md): entries that depend on
# them are not reported (documented blind spots); the others are decided or noted.
_UNDECIDABLE_TAGS = frozenset({
    "sparse-dense", "index-is-tensor-list", "quantized", "spatial-input", "cudnn-enabled",
    "fine-tuning-inference-mode", "indexed-slices-input", "cudnn-older-than-7.6",
})
TAG_NOTES = {
    "requires-grad": "when its input requires grad",
    "input-1d": "on a 1-D input",
    "input-nd": "on an input with more than one dimension",
    "floating-or-complex-dtype": "on floating-point or complex input",
    "src-is-tensor": "with a tensor `src`",
    "no-global-seed": "without an op seed or a global seed",
    "spatial-input": "on an input with more than two dimensions",
}
# Generic cuDNN entries: every conv net has them, so they are the evidence for RPL302
# (torch) and RPL304 (TF), not one finding per layer.
_GENERIC_CUDNN_IDS = frozenset({
    "conv-cuda", "conv-transpose-cuda", "cudnn-rnn", "cudnn-conv-pool-backprop", "keras-applications-cudnn-conv",
})


# ----------------------------------------------------------------------------- versions

def _latest(ops: tuple[catalog_ops.OpEntry, ...]) -> str:
    versions = [op.since for op in ops] + [op.until for op in ops if op.until is not None]
    major, minor, _ = max(versions)
    return f"{major}.{minor}"


def _installed(dist: str) -> Optional[str]:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


@functools.lru_cache(maxsize=None)
def _default_torch_version() -> str:
    return _installed("torch") or _latest(catalog_ops.load_torch_ops())


@functools.lru_cache(maxsize=None)
def _default_tf_version() -> str:
    return _installed("tensorflow") or _installed("tensorflow-cpu") or _latest(catalog_ops.load_tf_ops())


def torch_version(settings: Any) -> str:
    """``torch-version`` from the configuration, else the installed torch, else the latest
    version the catalog knows (torch is never imported)."""
    configured = getattr(settings, "torch_version", None)
    return configured or _default_torch_version()


def program_torch(ctx: Any, entry: str) -> tuple[str, str, Optional[dict[str, str]]]:
    """The torch a program runs on, as the version-aware rules assume it: the
    `torch-version` setting, else what the project of its entry point declares (the
    nearest declaration files, :func:`reprolint.analysis.declared.declarations_for`),
    else the installed torch, else the newest catalogued. Returns the version, the
    phrase a message uses (``torch 1.8, declared in requirements.txt as
    `torch==1.8.1`,``: commas around the source) and the JSON data of a declared one."""
    from reprolint.analysis.declared import assume, declarations_for

    memo = ctx.memo.setdefault("torch_by_folder", {})
    folder = str(PurePosixPath(entry).parent)
    assumed = memo.get(folder)
    if assumed is None:
        configured = ctx.memo.get("configured_torch", getattr(ctx.settings, "torch_version", None))
        found = [] if configured else declarations_for(entry, ctx.index.roots)
        assumed = memo[folder] = assume("torch", configured, found, _default_torch_version(), default_torch_source())
    if assumed.declared:
        return assumed.version, f"torch {short(assumed.version)}, {assumed.source},", assumed.to_data()
    return assumed.version, f"torch {short(assumed.version)}", None


def default_torch_source() -> str:
    """Where :func:`torch_version`'s default comes from, for messages."""
    return "installed" if _installed("torch") else "the newest catalogued"


def tf_version() -> str:
    """The installed TensorFlow's version, else the latest the catalog knows (per
    program, :func:`reprolint.analysis.tf_versions.program_tf` decides)."""
    return _default_tf_version()


def default_tf_version() -> str:
    return _default_tf_version()


def default_tf_source() -> str:
    """Where :func:`tf_version`'s default comes from."""
    return "installed" if _installed("tensorflow") or _installed("tensorflow-cpu") else "the newest catalogued"


def short(version: str) -> str:
    major, minor, _ = catalog_ops.parse_version(version)
    return f"{major}.{minor}"


# ----------------------------------------------------------------------------- catalog names

@functools.lru_cache(maxsize=1)
def op_names() -> frozenset[str]:
    """Every qualified name of the torch and TF op catalogs (``Tensor.X`` for methods)."""
    names: set[str] = set()
    for op in (*catalog_ops.load_torch_ops(), *catalog_ops.load_tf_ops()):
        names.update(op.names)
    return frozenset(names)


@functools.lru_cache(maxsize=1)
def tensor_method_names() -> frozenset[str]:
    """Method names matched on any receiver in a torch module (``x.index_add_(...)``)."""
    return frozenset(
        name[len("Tensor."):] for name in op_names() if name.startswith("Tensor.")
    )


# How many arguments each catalogued Tensor method needs besides the tensor (torch's
# signatures: `x.gather(dim, index)`, `x.scatter_(dim, index, src)`; tests/libraries
# checks each against the real torch). A call given fewer, with no `*args`/`**kwargs`,
# is some other object's method (`accelerator.gather(t)`, a collective).
TENSOR_METHOD_ARGUMENTS = {
    "bmm": 1, "cumsum": 1, "cumsum_": 1, "gather": 2, "index_add": 3, "index_add_": 3,
    "index_copy": 3, "index_copy_": 3, "index_put": 2, "index_put_": 2, "index_select": 2,
    "kthvalue": 1, "put": 2, "put_": 2, "repeat_interleave": 1, "scatter": 3, "scatter_": 3,
    "scatter_add": 3, "scatter_add_": 3, "scatter_reduce": 4, "scatter_reduce_": 4,
}


def binds_tensor_method(method: str, call: Any) -> bool:
    """``call`` gives at least the arguments the Tensor method ``method`` needs (or
    passes ``*args``/``**kwargs``, which may hold them)."""
    if any(arg.star for arg in call.args):
        return True
    return len(call.args) >= TENSOR_METHOD_ARGUMENTS.get(method, 0)


@functools.lru_cache(maxsize=1)
def tf_setting_names() -> frozenset[str]:
    return frozenset(
        name for s in catalog_ops.load_tf_settings() if s.form == "use" for name in s.names
    )


# ----------------------------------------------------------------------------- op matching

@dataclass(frozen=True)
class OpMatch:
    entry: catalog_ops.OpEntry
    notes: tuple[str, ...]  # runtime conditions the message mentions


def _catalog_value(value: Any) -> Any:
    # an option not resolved by the caller (``OptionRef``) is as unknown as a variable
    return catalog_ops.UNKNOWN if value == UNKNOWN or isinstance(value, OptionRef) else value


def match_op(
    usage: OpCall, version: str, *, cuda: bool, training: bool, framework: str = "torch",
    tf_unseeded_det: bool = False,
) -> list[OpMatch]:
    """Catalog entries a recorded op call matches in a program with these properties."""
    name = usage.name
    method = name[len("Tensor."):] if name.startswith("Tensor.") else None
    if method in _AMBIGUOUS_METHODS and not (method == "__getitem__" and "index-is-tensor-list" in usage.facts):
        keyword = _TORCH_ONLY_KEYWORDS.get(method)
        if keyword is None or not usage.has_kw(keyword):
            return []
    args = tuple(_catalog_value(a) for a in usage.args)
    kwargs = {k: _catalog_value(v) for k, v in usage.kwargs}
    found = []
    for entry in catalog_ops.lookup(name, version):
        if entry.framework != framework or entry.id in _GENERIC_CUDNN_IDS:
            continue
        if (set(entry.runtime) & _UNDECIDABLE_TAGS) - set(usage.facts):
            continue  # depends on a runtime fact the collector did not see in the source
        if "floating-or-complex-dtype" in entry.runtime and "integer-input" in usage.facts:
            continue  # the input visibly holds integers
        if entry.cuda_only and not cuda:
            continue
        if entry.backward_only and not training:
            continue
        if not _conditions_hold(entry, name, args, kwargs, usage.splat):
            continue
        if "src-is-tensor" in entry.runtime and not _src_may_be_tensor(args, kwargs):
            continue
        if "no-global-seed" in entry.runtime and not tf_unseeded_det:
            continue
        notes = tuple(TAG_NOTES[t] for t in entry.runtime if t in TAG_NOTES and t != "src-is-tensor")
        found.append(OpMatch(entry, notes))
    return found


def _conditions_hold(entry: catalog_ops.OpEntry, name: str, args: tuple, kwargs: dict, star: bool) -> bool:
    for condition in entry.when:
        outcome = condition.evaluate(name, args, kwargs)
        if outcome is False:
            return False
        if outcome is None:
            position = condition.position_for(name)
            passed = condition.arg in kwargs or (position is not None and position < len(args))
            if not passed and not star:
                return False  # decided by a default we do not know: stay silent
    return True


def _src_may_be_tensor(args: tuple, kwargs: dict) -> bool:
    if "value" in kwargs or "reduce" in kwargs and "src" not in kwargs:
        return "src" in kwargs
    src = kwargs.get("src", args[2] if len(args) > 2 else catalog_ops.UNKNOWN)
    return not isinstance(src, (int, float)) or isinstance(src, bool)


# ----------------------------------------------------------------------------- programs

# The one program result (reprolint.analysis.program.Program) under the name the op,
# flag and order rules have used for it.
ProgramUsage = Program


def program_usages(ctx: CheckContext) -> list[Program]:
    """Every program of the check, then every module no program reaches (as a library)."""
    return ctx.all_programs


# ----------------------------------------------------------------------------- TensorFlow

@dataclass(frozen=True)
class TfDeterminism:
    on: bool  # op determinism is requested in a way this TF version honours
    via: Optional[str]  # how ("enable_op_determinism()", "TF_DETERMINISTIC_OPS=1")
    cudnn_only: bool  # only TF_CUDNN_DETERMINISTIC is set


def tf_determinism(program: ProgramUsage, version: str) -> TfDeterminism:
    flags = {f.name: f for f in catalog_ops.load_tf_flags()}
    call = flags.get("tensorflow.config.experimental.enable_op_determinism")
    if program.has(FlagSet, "tf.op-determinism") and (call is None or call.honoured_by(version)):
        return TfDeterminism(True, "`tf.config.experimental.enable_op_determinism()`", False)
    cudnn_only = False
    for _, _, usage in program.of(EnvSet):
        flag = flags.get(usage.name)
        if flag is None or flag.form != "env":
            continue
        value = usage.value
        if value is not None and str(value).lower() not in flag.values:
            continue
        if not flag.honoured_by(version):
            continue
        if usage.name == "TF_CUDNN_DETERMINISTIC":
            cudnn_only = True
            continue
        return TfDeterminism(True, f"`{usage.name}={value}`", False)
    return TfDeterminism(False, None, cudnn_only)


@functools.lru_cache(maxsize=1)
def tf_settings_by_name() -> dict[str, catalog_ops.TfSetting]:
    return {name: s for s in catalog_ops.load_tf_settings() for name in s.names}
