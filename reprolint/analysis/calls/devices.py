"""Device selection in TensorFlow and JAX (GPU used, or hidden)."""

from __future__ import annotations

from typing import Any

import libcst as cst

from reprolint.analysis.calls import CallSite, on_call
from reprolint.analysis.cst_helpers import literal as _literal
from reprolint.analysis.usage_events import CudaWork, GpuHidden, GpuSelected


def _tf(c: Any) -> bool:
    return "tensorflow" in c.uses or "keras" in c.uses


@on_call("tensorflow.config.set_visible_devices", "tensorflow.config.experimental.set_visible_devices")
def _visible_devices(c: Any, site: CallSite) -> None:
    if not _tf(c):
        return
    first = site.node.args[0].value if site.node.args else None
    if isinstance(first, cst.List) and not first.elements:
        c._u_emit(GpuHidden, "tf", site.node)
    else:
        c._u_emit(GpuSelected, "tf", site.node)


@on_call("tensorflow.device")
def _tf_device(c: Any, site: CallSite) -> None:
    from reprolint.analysis.usage import strings_in

    if _tf(c) and site.node.args and "gpu" in strings_in(site.node.args[0].value).lower():
        c._u_emit(GpuSelected, "tf", site.node)


@on_call("tensorflow.config.experimental.set_memory_growth", "tensorflow.distribute.MirroredStrategy")
def _tf_gpu(c: Any, site: CallSite) -> None:
    if _tf(c):
        c._u_emit(GpuSelected, "tf", site.node)


@on_call("jax.config.update")
def _jax_platform(c: Any, site: CallSite) -> None:
    if "jax" not in c.uses or len(site.node.args) < 2:
        return
    key, value = _literal(site.node.args[0].value), _literal(site.node.args[1].value)
    if key in ("jax_platform_name", "jax_platforms") and isinstance(value, str):
        c._u_emit(GpuHidden if value == "cpu" else GpuSelected, "jax", site.node)


@on_call("jax.devices")
def _jax_devices(c: Any, site: CallSite) -> None:
    if "jax" in c.uses and site.node.args and _literal(site.node.args[0].value) in ("gpu", "cuda"):
        c._u_emit(GpuSelected, "jax", site.node)


# --- torch: the accelerator API (torch >= 2.6).
# ``torch.accelerator.current_accelerator()`` is CUDA on a CUDA machine, like
# ``"cuda" if torch.cuda.is_available() else "cpu"``; the index setters select a GPU.
@on_call(
    "torch.accelerator.current_accelerator", "torch.accelerator.set_device_index",
    "torch.accelerator.set_device_idx", "torch.accelerator.device_index",
)
def _torch_accelerator(c: Any, site: CallSite) -> None:
    if "torch" in c.uses:
        c._u_emit(CudaWork, f"`{c.text(site.node.func)}()`", site.node)

