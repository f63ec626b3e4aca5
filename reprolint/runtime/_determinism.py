"""Determinism flags for torch and TensorFlow, applied when the library is imported."""

from __future__ import annotations

import os
import sys
import warnings
from types import ModuleType
from typing import Any, Dict, Optional

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
    """TF >= 2.8 has an API for op determinism; 2.1-2.7 read ``TF_DETERMINISTIC_OPS``;
    1.14-2.0 only ``TF_CUDNN_DETERMINISTIC`` (cuDNN convolution and max-pooling
    algorithms: NVIDIA's framework-reproducibility notes). The variables are read when
    the first kernels are built, after the import (NVIDIA's own examples set them there)."""
    experimental = getattr(getattr(tf, "config", None), "experimental", None)
    if experimental is not None and hasattr(experimental, "enable_op_determinism"):
        experimental.enable_op_determinism()
        flags["tf_op_determinism"] = True
    else:
        os.environ.setdefault("TF_DETERMINISTIC_OPS", "1")
        flags["tf_op_determinism"] = "TF_DETERMINISTIC_OPS=1"
        version = str(getattr(tf, "__version__", ""))
        if version.startswith(("1.", "2.0.")) or version == "2.0":
            os.environ.setdefault("TF_CUDNN_DETERMINISTIC", "1")
            flags["tf_op_determinism"] = "TF_CUDNN_DETERMINISTIC=1"


def hash_seed_unset() -> bool:
    return os.environ.get("PYTHONHASHSEED") in (None, "random")


def main_script() -> Optional[str]:
    """The script the program was started as (`python train.py`), absolute; None for
    `python -c`, an interactive session or a frozen program."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None) or (sys.argv[0] if sys.argv and sys.argv[0] not in ("", "-c") else None)
    if not path or not str(path).endswith(".py"):
        return None
    return os.path.abspath(path)


def hash_order_site(script: str) -> Optional[str]:
    """Where `script`'s program takes an order from a set of str (`reprolint check`'s
    RPL401/RPL307), as `path:line`; None when nothing there depends on str hashing."""
    try:
        from reprolint.api import check_paths
        from reprolint.config import Settings

        found = check_paths([script], Settings(select=("RPL401", "RPL307")), fix_edits=False).diagnostics
    except Exception:  # the checker must never break the program it advises
        return None
    # The set iteration itself (RPL401) rather than the program-level RPL307.
    for d in sorted(found, key=lambda d: (d.code != "RPL401", d.sort_key)):
        return f"{_shown(str(d.path))}:{d.span.start_line}"
    return None


def _shown(path: str) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return path
    return path if relative.startswith("..") else relative


def warn_if_hash_order_matters(script: Optional[str]) -> None:
    """At exit of the program's main process: warn that PYTHONHASHSEED is unset only
    when the program's results can depend on str hash order, naming its own script."""
    if not hash_seed_unset() or script is None or not os.path.isfile(script):
        return
    site = hash_order_site(script)
    if site is None:
        return
    shown = _shown(script)
    warnings.warn(
        f"reprolint: PYTHONHASHSEED is not set, and the program takes an order from a set "
        f"of str ({site}), which differs from run to run; set it before Python starts: "
        f"PYTHONHASHSEED=0 python {shown}",
        DeterminismWarning,
        stacklevel=2,
    )
