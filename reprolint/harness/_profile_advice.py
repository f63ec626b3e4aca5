"""What `reprolint profile` tells the user to do about the op it found, from the catalog.

The catalog (`rules/nondeterministic_ops.toml`) is keyed by the names users call
(`torch.nn.functional.interpolate`, `Tensor.index_add_`); the recorder sees aten ops
(`aten::upsample_bilinear2d_backward`, `aten::index_add_`). `catalog_names()` maps one
to the other: the method and function of the same name, and a table for the ops that
the nn layers and the backward passes call under other names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple

# aten name prefixes (after leading underscores are dropped) -> the catalog's names.
_ATEN_TO_API: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    ("upsample_", ("torch.nn.functional.interpolate",)),
    ("embedding_bag", ("torch.nn.functional.embedding_bag",)),
    ("embedding", ("torch.nn.functional.embedding",)),
    ("nll_loss", ("torch.nn.functional.nll_loss",)),
    ("reflection_pad", ("torch.nn.functional.pad",)),
    ("replication_pad", ("torch.nn.functional.pad",)),
    ("adaptive_avg_pool2d", ("torch.nn.functional.adaptive_avg_pool2d",)),
    ("adaptive_avg_pool3d", ("torch.nn.functional.adaptive_avg_pool3d",)),
    ("adaptive_max_pool2d", ("torch.nn.functional.adaptive_max_pool2d",)),
    ("avg_pool3d", ("torch.nn.functional.avg_pool3d",)),
    ("max_pool3d", ("torch.nn.functional.max_pool3d",)),
    ("fractional_max_pool2d", ("torch.nn.FractionalMaxPool2d",)),
    ("fractional_max_pool3d", ("torch.nn.FractionalMaxPool3d",)),
    ("max_unpool2d", ("torch.nn.MaxUnpool2d",)),
    ("max_unpool3d", ("torch.nn.MaxUnpool3d",)),
    ("grid_sampler", ("torch.nn.functional.grid_sample",)),
    ("ctc_loss", ("torch.nn.functional.ctc_loss",)),
    ("cudnn_convolution_transpose", ("torch.nn.functional.conv_transpose2d",)),
    ("cudnn_convolution", ("torch.nn.functional.conv2d",)),
    ("convolution", ("torch.nn.functional.conv2d",)),
    ("cudnn_rnn", ("torch.nn.LSTM",)),
    ("scaled_dot_product", ("torch.nn.functional.scaled_dot_product_attention",)),
    ("index_put", ("Tensor.index_put_",)),
)

_SUFFIXES = ("_backward", "_forward", "_out")


def catalog_names(op: str) -> List[str]:
    """Catalog names an aten op can be reached by (`aten::index_add_` -> `Tensor.index_add_`, ...)."""
    namespace, _, base = op.partition("::")
    if namespace != "aten" or not base:
        return []
    base = base.split(".")[0]
    stripped = base.lstrip("_")
    for suffix in _SUFFIXES:
        if stripped.endswith(suffix):
            stripped = stripped[: -len(suffix)]
    names: List[str] = []
    for name in (base, stripped, stripped.rstrip("_"), stripped.rstrip("_") + "_"):
        names += [f"Tensor.{name}", f"torch.{name}", f"torch.nn.functional.{name}"]
    for prefix, api in _ATEN_TO_API:
        if stripped.startswith(prefix):
            names += list(api)
            break
    seen: List[str] = []
    for name in names:
        if name not in seen:
            seen.append(name)
    return seen


@dataclass
class Advice:
    """The catalog's word on an op, or the generic advice for the kind of divergence."""

    catalogued: bool
    lines: List[str] = field(default_factory=list)
    entries: List[str] = field(default_factory=list)  # catalog ids
    patched_by_runtime: bool = False


def _torch_version(version: Optional[str]) -> Optional[str]:
    if version:
        return version
    try:
        import torch
    except ImportError:
        return None
    return str(torch.__version__)


def advice_for(op: str, verdict: str, torch_version: Optional[str] = None) -> Advice:
    """What to do about `op`, given why it diverged (see `profile.Divergence.verdict`)."""
    if verdict == "random":
        return Advice(False, [
            f"`{op}` draws from a random generator whose state differs between the runs: seed "
            "it at the entry point (torch.manual_seed(...)), or record and replay the "
            "seed with reprolint.runtime.install() / `reprolint verify --replay`",
        ])
    if verdict == "inputs":
        return Advice(False, [
            f"`{op}` is the first op to see different inputs, so they were made outside torch's "
            "ops: data built in Python or NumPy from an unseeded RNG, set/dict order of str "
            "(PYTHONHASHSEED), file listing order, the clock; `reprolint check` finds most of "
            "these, `reprolint verify --replay` records and replays them",
        ])
    if verdict == "control-flow":
        return Advice(False, [
            "the runs executed different ops here: a branch or loop count depends on something "
            "that differs between runs (an unseeded draw, hash order, the clock)",
        ])
    from reprolint.catalog.ops import lookup
    from reprolint.runtime.patches import planned

    version = _torch_version(version=torch_version)
    found = []
    for name in catalog_names(op):
        for entry in lookup(name, version) if version else lookup(name):
            if entry.framework == "torch" and entry not in found:
                found.append(entry)
    patched = bool(version) and any(spec.op == op.split(".")[0] for spec in planned(version))
    if not found:
        namespace = op.partition("::")[0]
        kind = "a custom op" if namespace not in ("aten", "prims") else "an op reprolint's catalog does not list"
        return Advice(False, [
            f"`{op}` is {kind}: it gives different results for identical inputs, so its "
            "implementation depends on timing or on state outside its inputs (accumulation "
            "order, threads, atomics, an RNG of its own); make the order fixed (sort the "
            "operands, accumulate in a fixed order) or build it from deterministic torch ops, "
            "then run `reprolint profile` again",
        ], patched_by_runtime=patched)
    lines = []
    for entry in found:
        device = {"cuda": "on CUDA", "cpu": "on CPU"}.get(entry.device, "")
        backward = " (backward)" if entry.backward_only else ""
        if entry.kind == "raises":
            head = f"{entry.rule} {entry.id}: no deterministic kernel {device}{backward}; torch.use_deterministic_algorithms(True) makes it raise"
        else:
            fixes = " or ".join(entry.fixes) or "torch.use_deterministic_algorithms"
            head = f"{entry.rule} {entry.id}: deterministic {device}{backward} with {fixes}"
        lines.append(head.replace("  ", " ") + (f"; alternative: {entry.alternative}" if entry.alternative else ""))
    if patched:
        lines.append("reprolint.runtime.patch() (or install(patch=True)) replaces it on CUDA with a deterministic kernel")
    return Advice(True, lines, [entry.id for entry in found], patched)
