"""Compare checkpoints and other files that two runs wrote (`verify --artifact`)."""

from __future__ import annotations

import hashlib
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple


@dataclass
class TensorDiff:
    """One tensor (or leaf value) of a checkpoint that differs between the runs."""

    name: str
    max_abs: Optional[float] = None
    max_rel: Optional[float] = None
    note: str = ""  # "shape (3, 4) vs (4, 3)", "only in run 1", ...


@dataclass
class ArtifactComparison:
    """One `--artifact` of run 1 against run k."""

    artifact: str
    kind: str  # "tensors" (torch.load / NumPy) or "bytes"
    equal: bool
    tensors: int = 0
    differing: List[TensorDiff] = field(default_factory=list)
    note: str = ""


def _flatten(value: Any, prefix: str, out: Dict[str, Any]) -> None:
    """State dicts, optimizer states and nested dicts/lists -> {"a.b.0": leaf}."""
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(item, f"{prefix}.{key}" if prefix else str(key), out)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _flatten(item, f"{prefix}.{index}" if prefix else str(index), out)
    else:
        out[prefix or "<value>"] = value


def _load_tensors(path: Path) -> Optional[Dict[str, Any]]:
    """The checkpoint's leaves, or None when the file is not a torch or NumPy file."""
    leaves: Dict[str, Any] = {}
    if path.suffix in (".npy", ".npz") and importlib.util.find_spec("numpy") is not None:
        import numpy as np

        try:
            loaded = np.load(path, allow_pickle=False)
        except (OSError, ValueError):
            return None
        if path.suffix == ".npz":
            _flatten({k: loaded[k] for k in loaded.files}, "", leaves)
        else:
            leaves["<array>"] = loaded
        return leaves
    if importlib.util.find_spec("torch") is None:
        return None
    import torch

    try:
        # weights_only: never run code from a checkpoint just to compare it.
        loaded = torch.load(path, map_location="cpu", weights_only=True)
    except Exception:
        return None
    _flatten(loaded, "", leaves)
    return leaves


def _as_tensor(value: Any) -> Any:
    """A torch tensor for tensors and arrays, else None."""
    if hasattr(value, "detach"):
        return value.detach()
    if type(value).__module__ == "numpy" and hasattr(value, "dtype"):
        import torch

        return torch.from_numpy(value) if hasattr(value, "shape") and value.shape else torch.tensor(value)
    return None


def _tensor_diff(name: str, a: Any, b: Any) -> Optional[TensorDiff]:
    """None when bit-identical; else how far apart (max |a-b| and max |a-b|/|a|)."""
    import torch

    if a.dtype != b.dtype:
        return TensorDiff(name, note=f"dtype {a.dtype} vs {b.dtype}")
    if a.shape != b.shape:
        return TensorDiff(name, note=f"shape {tuple(a.shape)} vs {tuple(b.shape)}")
    if a.numel() == 0:
        return None
    if a.is_floating_point() or a.is_complex():
        bits = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[a.element_size()]
        ra = torch.view_as_real(a) if a.is_complex() else a
        rb = torch.view_as_real(b) if b.is_complex() else b
        # Bitwise, so that NaN == NaN and -0.0 != 0.0: what "identical" means here.
        if torch.equal(ra.contiguous().view(bits), rb.contiguous().view(bits)):
            return None
        da, db = ra.double(), rb.double()
        delta = (da - db).abs()
        delta = torch.where(torch.isnan(delta), torch.full_like(delta, float("inf")), delta)
        rel = delta / da.abs().clamp_min(torch.finfo(torch.float64).tiny)
        return TensorDiff(name, float(delta.max()), float(rel.max()))
    if torch.equal(a, b):
        return None
    delta = (a.long() - b.long()).abs() if a.dtype != torch.bool else (a != b).long()
    return TensorDiff(name, float(delta.max()), None, note=f"{int((a != b).sum())} elements differ")


def compare_artifact(name: str, path_a: Path, path_b: Path) -> ArtifactComparison:
    """Every tensor of two checkpoints (equal, or max abs/rel difference); other files
    byte for byte."""
    leaves_a, leaves_b = _load_tensors(path_a), _load_tensors(path_b)
    if leaves_a is None or leaves_b is None:
        equal = _sha256(path_a) == _sha256(path_b)
        return ArtifactComparison(name, "bytes", equal, note="" if equal else "contents differ")
    result = ArtifactComparison(name, "tensors", True)
    for key in list(dict.fromkeys(list(leaves_a) + list(leaves_b))):
        if key not in leaves_b or key not in leaves_a:
            result.differing.append(TensorDiff(key, note=f"only in run {'1' if key in leaves_a else 'k'}"))
            continue
        va, vb = leaves_a[key], leaves_b[key]
        ta, tb = _as_tensor(va), _as_tensor(vb)
        if ta is not None and tb is not None:
            result.tensors += 1
            diff = _tensor_diff(key, ta, tb)
        elif ta is None and tb is None:
            diff = None if type(va) is type(vb) and _same_leaf(va, vb) else TensorDiff(
                key, note=f"{va!r:.30} vs {vb!r:.30}"
            )
        else:
            diff = TensorDiff(key, note="a tensor in one run only")
        if diff is not None:
            result.differing.append(diff)
    result.equal = not result.differing
    # Largest difference first: the tensor a person should look at.
    result.differing.sort(key=lambda d: -(d.max_abs if d.max_abs is not None else float("inf")))
    return result


def _same_leaf(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True  # NaN in both
    return bool(a == b)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def summarize(result: ArtifactComparison) -> Tuple[str, str]:
    """(verdict word, one-line detail) for reports."""
    if result.equal:
        what = f"{result.tensors} tensor{'s' if result.tensors != 1 else ''}" if result.kind == "tensors" else "bytes"
        return "identical", f"{what} identical"
    if result.kind == "bytes":
        return "differs", "file contents differ"
    worst = result.differing[0]
    detail = f"{len(result.differing)} of {max(result.tensors, len(result.differing))} tensors differ"
    if worst.max_abs is not None:
        detail += f"; largest: {worst.name} max |Δ| {worst.max_abs:.2e}"
        if worst.max_rel is not None:
            detail += f" (rel {worst.max_rel:.2e})"
    elif worst.note:
        detail += f"; {worst.name}: {worst.note}"
    return "differs", detail
