"""Determinism switches: torch's deterministic mode, cuDNN flags, TF op determinism,
``reprolint.runtime.install`` (what ``fix`` inserts)."""

from __future__ import annotations

from typing import Any

from reprolint.analysis.calls import CallSite, on_call
from reprolint.analysis.cst_helpers import find_argument, literal as _literal
from reprolint.analysis.usage_events import EnvSet, FlagSet
from reprolint.analysis.values import UNKNOWN


@on_call("accelerate.utils.set_seed", "accelerate.utils.random.set_seed")
def _accelerate_set_seed(c: Any, site: CallSite) -> None:
    det = site.kwargs.get("deterministic")
    if det is not None:
        c._u_flag("torch.deterministic", site.node, det)


@on_call("torch.use_deterministic_algorithms", "torch.set_deterministic")
def _torch_deterministic(c: Any, site: CallSite) -> None:
    mode = find_argument(site.node, "mode", 0) or find_argument(site.node, "d", None)
    warn = find_argument(site.node, "warn_only", 1)
    c._u_flag(
        "torch.deterministic", site.node, mode.value if mode is not None else None,
        warn_only=warn is not None and _literal(warn.value) is True,
    )


@on_call("torch.set_deterministic_debug_mode")
def _debug_mode(c: Any, site: CallSite) -> None:
    if not site.node.args:
        return
    value = _literal(site.node.args[0].value)
    on = value in ("warn", "error", 1, 2)
    c._u_emit(FlagSet, "torch.deterministic", site.node, value=on if value != UNKNOWN else UNKNOWN,
              warn_only=value in ("warn", 1))


@on_call("tensorflow.config.experimental.enable_op_determinism")
def _tf_op_determinism(c: Any, site: CallSite) -> None:
    c._u_emit(FlagSet, "tf.op-determinism", site.node, value=True)


@on_call("transformers.enable_full_determinism", "transformers.trainer_utils.enable_full_determinism")
def _hf_full_determinism(c: Any, site: CallSite) -> None:
    c._u_emit(FlagSet, "hf.full-determinism", site.node, value=True)


@on_call("reprolint.runtime.install")
def _reprolint_install(c: Any, site: CallSite) -> None:
    # `install(deterministic=True)` (the default) sets every switch when the library is
    # imported, and CUBLAS_WORKSPACE_CONFIG at once (what `fix` inserts).
    det = site.kwargs.get("deterministic")
    if det is None or _literal(det) is not False:
        for flag, on in (("torch.deterministic", True), ("cudnn.deterministic", True),
                         ("cudnn.benchmark", False), ("tf.op-determinism", True)):
            known = det is None or _literal(det) is True
            c._u_emit(FlagSet, flag, site.node, value=on if known else UNKNOWN)
        c._u_emit(EnvSet, "CUBLAS_WORKSPACE_CONFIG", site.node, value=":4096:8")


@on_call("torch.backends.cudnn.flags")
def _cudnn_flags(c: Any, site: CallSite) -> None:
    for key in ("deterministic", "benchmark"):
        if key in site.kwargs:
            c._u_flag(f"cudnn.{key}", site.node, site.kwargs[key])
