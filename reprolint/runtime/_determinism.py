"""Determinism flags for torch and TensorFlow, applied when the library is imported."""

from __future__ import annotations

import os
import sys
import warnings
from types import ModuleType
from typing import Any, Dict

# The smaller documented value (":16:8") costs speed; this one costs ~24 MiB of memory.
CUBLAS_WORKSPACE_CONFIG = ":4096:8"


class DeterminismWarning(UserWarning):
    """A determinism setting could not be applied; runs may still differ."""


def set_cublas_workspace(flags: Dict[str, Any]) -> None:
    """Set CUBLAS_WORKSPACE_CONFIG while it can still take effect.

    cuBLAS reads it when CUDA starts; afterwards setting it changes nothing, so say so.
    """
    current = os.environ.get("CUBLAS_WORKSPACE_CONFIG")
    if current:
        flags["cublas_workspace_config"] = current
        return
    torch = sys.modules.get("torch")
    if torch is not None and _cuda_initialized(torch):
        flags["cublas_workspace_config"] = None
        warnings.warn(
            "reprolint: CUDA is already initialised, so CUBLAS_WORKSPACE_CONFIG can no longer "
            "take effect and cuBLAS matrix products may be nondeterministic; call "
            "reprolint.runtime.install() before the first CUDA call, or set "
            f"CUBLAS_WORKSPACE_CONFIG={CUBLAS_WORKSPACE_CONFIG} in the environment",
            DeterminismWarning,
            stacklevel=4,
        )
        return
    os.environ["CUBLAS_WORKSPACE_CONFIG"] = CUBLAS_WORKSPACE_CONFIG
    flags["cublas_workspace_config"] = CUBLAS_WORKSPACE_CONFIG


def _cuda_initialized(torch: ModuleType) -> bool:
    try:
        return bool(torch.cuda.is_initialized())
    except Exception:
        return False


def apply_torch(torch: ModuleType, flags: Dict[str, Any]) -> None:
    """Deterministic algorithms everywhere, cuDNN deterministic and not autotuned."""
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    flags["torch_deterministic_algorithms"] = True
    flags["cudnn_deterministic"] = True
    flags["cudnn_benchmark"] = False


def apply_tensorflow(tf: ModuleType, flags: Dict[str, Any]) -> None:
    """TF >= 2.8 has an API for op determinism; older versions read an env var."""
    experimental = getattr(getattr(tf, "config", None), "experimental", None)
    if experimental is not None and hasattr(experimental, "enable_op_determinism"):
        experimental.enable_op_determinism()
        flags["tf_op_determinism"] = True
    else:
        os.environ.setdefault("TF_DETERMINISTIC_OPS", "1")
        flags["tf_op_determinism"] = "TF_DETERMINISTIC_OPS=1"


def warn_if_hash_seed_unset() -> None:
    value = os.environ.get("PYTHONHASHSEED")
    if value is None or value == "random":
        warnings.warn(
            "reprolint: PYTHONHASHSEED is not set, so the iteration order of sets of str "
            "differs from run to run; it must be set before Python starts "
            "(e.g. PYTHONHASHSEED=0 python train.py)",
            DeterminismWarning,
            stacklevel=4,
        )
