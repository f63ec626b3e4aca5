"""Where ops run: device selection in TensorFlow and JAX (GPU used, or hidden), other
accelerator stacks, CPU pinning, and torch's no-gradient contexts."""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst

from reprolint.analysis.calls import CallSite, on_call
from reprolint.analysis.cst_helpers import attr_chain, literal as _literal, strings_in
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
        c._u_emit(GpuHidden if not gpu_platform(value) else GpuSelected, "jax", site.node)


def gpu_platform(value: str) -> bool:
    """Whether a JAX platform list (``"tpu"``, ``"cuda,cpu"``; ``JAX_PLATFORMS``) admits a GPU."""
    return any(p.strip().lower() in ("gpu", "cuda", "rocm") for p in value.split(","))


@on_call("jax.tools.colab_tpu.setup_tpu")
def _jax_colab_tpu(c: Any, site: CallSite) -> None:
    """A Colab notebook that connects JAX to the runtime's TPU: JAX runs there, on no GPU.
    Not where it connects only in a TPU runtime (`if "COLAB_TPU_ADDR" in os.environ:`):
    the same notebook runs on a GPU runtime too."""
    if not c.current_conds():
        c._u_emit(GpuHidden, "jax", site.node)


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

# Accelerator stacks other than CUDA whose Python package only imports where the device's
# own runtime is installed: Ascend NPUs (`torch_npu`, needs CANN), Cambricon MLUs
# (`torch_mlu`), Intel Gaudi HPUs (`habana_frameworks`), Moore Threads GPUs (`torch_musa`).
# (`torch_xla` is not one: it also runs on CUDA through XLA's GPU backend.)
DEVICE_STACKS = {"torch_npu": "NPU", "torch_mlu": "MLU", "habana_frameworks": "HPU", "torch_musa": "MUSA"}


def device_stack(module: cst.Module) -> Optional[str]:
    """The device a module is written for when its top level imports one of
    :data:`DEVICE_STACKS` unconditionally (not inside ``try``/``if``/a function)."""
    for stmt in module.body:
        if type(stmt) is not cst.SimpleStatementLine:
            continue
        for small in stmt.body:
            if type(small) is cst.Import:
                roots = [(attr_chain(alias.name) or [""])[0] for alias in small.names]  # type: ignore[union-attr]
            elif type(small) is cst.ImportFrom and small.module is not None and not small.relative:
                roots = [(attr_chain(small.module) or [""])[0]]
            else:
                continue
            for root in roots:
                if root in DEVICE_STACKS:
                    return DEVICE_STACKS[root]
    return None


def tf_device(node: cst.BaseExpression, qualify: Any) -> Optional[str]:
    """For ``with tf.device(...):``, where TensorFlow places the ops created in the
    block (those of the functions it calls too): ``"cpu"`` for a literal naming a CPU
    (``"/cpu:0"``), ``"other"`` for any other device (``"/gpu:%d" % i``); None where the
    context is no ``tf.device``."""
    if not isinstance(node, cst.Call) or not node.args or node.args[0].keyword is not None:
        return None
    if qualify(node.func) not in ("tensorflow.device", "tensorflow.compat.v1.device"):
        return None
    device = _literal(node.args[0].value)
    return "cpu" if isinstance(device, str) and "cpu" in device.lower() else "other"


# Contexts and decorators under which torch records no gradient (no backward kernel runs).
_NO_GRAD_CONTEXTS = frozenset({"torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad", "torch.autograd.grad_mode.no_grad"})


def no_grad_context(node: cst.BaseExpression, qualify: Any) -> bool:
    """``torch.no_grad()``, ``torch.inference_mode()`` (as a context or decorator)."""
    func = node.func if isinstance(node, cst.Call) else node
    return qualify(func) in _NO_GRAD_CONTEXTS
