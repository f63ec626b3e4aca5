"""Deterministic implementations of ops that have none on CUDA, built from ops that do.

Every function here is device-agnostic: it runs wherever its inputs live and uses only
sorts (stable, so ties keep their input order), `searchsorted`, gathers, elementwise
arithmetic and indexed writes to *unique* positions. None of them uses atomics,
`index_add_`/`scatter_add_` or a floating-point `cumsum` (itself nondeterministic on
CUDA up to torch 2.13), so the result depends on the values only, never on timing.

Segment reductions (the sum of every weight that falls into one bin, say) use a
segmented Hillis-Steele scan: the values, sorted by segment, are combined with their
neighbour 1, 2, 4, ... places back while both lie in the same segment. That is log2(n)
elementwise passes in a fixed tree order. Sums can round differently from the CPU
kernel's left-to-right order (by an ulp or so), but identically on every run.

`reprolint.runtime.patches` registers these as the CUDA kernels; they are tested on CPU
against torch's own kernels.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, Tuple

import torch

Tensor = torch.Tensor

REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")


# --------------------------------------------------------------------------- segments


def _combiner(reduce: str) -> Callable[[Tensor, Tensor], Tensor]:
    if reduce in ("sum", "mean"):
        return torch.add
    if reduce == "prod":
        return torch.mul
    if reduce == "amax":
        return torch.maximum  # propagates NaN, as the reductions do
    if reduce == "amin":
        return torch.minimum
    raise RuntimeError(f"reduce argument must be one of {', '.join(REDUCTIONS)}, not {reduce!r}")


def segment_scan(values: Tensor, keys: Tensor, reduce: str) -> Tensor:
    """Inclusive scan of `values` within runs of equal `keys` (`keys` sorted), fixed order."""
    combine = _combiner(reduce)
    x = values
    n = x.shape[0]
    shift = 1
    while shift < n:
        same = keys[shift:] == keys[:-shift]
        tail = torch.where(same, combine(x[shift:], x[:-shift]), x[shift:])
        x = torch.cat([x[:shift], tail])
        shift *= 2
    return x


def segment_reduce(
    values: Tensor, keys: Tensor, reduce: str
) -> Tuple[Tensor, Tensor, Tensor]:
    """Reduce `values` grouped by integer `keys` (any order).

    Returns (distinct keys ascending, one reduced value per key, the count per key).
    """
    if keys.numel() == 0:
        empty = keys.new_empty(0)
        return empty, values.new_empty(0), empty
    order = torch.sort(keys, stable=True).indices
    keys = keys[order]
    scanned = segment_scan(values[order], keys, reduce)
    last = torch.ones_like(keys, dtype=torch.bool)
    last[:-1] = keys[1:] != keys[:-1]
    ends = torch.nonzero(last).flatten()
    starts = torch.cat([ends.new_zeros(1), ends[:-1] + 1])
    return keys[ends], scanned[ends], ends - starts + 1


def _counts(ids: Tensor, length: int) -> Tensor:
    """How often each of 0..length-1 occurs in `ids` (int64), by sort + binary search."""
    ordered = torch.sort(ids.flatten()).values
    below = torch.searchsorted(ordered, torch.arange(length, device=ids.device, dtype=ordered.dtype), right=True)
    return torch.diff(below, prepend=below.new_zeros(1))


# --------------------------------------------------------------------------- histc / bincount


def histc(input: Tensor, bins: int = 100, min: Any = 0, max: Any = 0) -> Tensor:
    """`torch.histc`: counts in `bins` equal-width bins over [min, max] (data range if equal)."""
    if bins <= 0:
        raise RuntimeError("torch.histc: bins must be > 0")
    if not input.is_floating_point():
        raise RuntimeError(f"torch.histc: input tensor of dtype {input.dtype} is not floating point")
    x = input.flatten()
    lo, hi = float(min), float(max)
    if lo == hi and x.numel() > 0:
        lo, hi = float(x.min()), float(x.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (lo == lo and hi == hi and abs(lo) != float("inf") and abs(hi) != float("inf")):
        raise RuntimeError(f"torch.histc: range of [{lo}, {hi}] is not finite")
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    # The bounds in the input's dtype, and the arithmetic in it, as the kernels do.
    low = torch.tensor(lo, dtype=x.dtype, device=x.device)
    high = torch.tensor(hi, dtype=x.dtype, device=x.device)
    inside = (x >= low) & (x <= high)
    x = x[inside]
    position = ((x - low) * bins / (high - low)).to(torch.int64)
    position = position.clamp(0, bins - 1)  # x == max belongs to the last bin
    return _counts(position, bins).to(input.dtype)


def bincount(input: Tensor, weights: Optional[Tensor] = None, minlength: int = 0) -> Tensor:
    """`torch.bincount`: occurrences (or summed weights) of each non-negative integer."""
    if input.dim() != 1 or input.is_floating_point() or input.is_complex() or input.dtype == torch.bool:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is not None and weights.shape != input.shape:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    if input.numel() and bool((input < 0).any()):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    length = max(int(input.max()) + 1, minlength) if input.numel() else minlength
    ids = input.to(torch.int64)
    if weights is None or input.numel() == 0:  # torch ignores the weights of an empty input
        return _counts(ids, length)
    # float32 weights sum in float32; every other dtype in float64 (as the CPU kernel).
    dtype = torch.float32 if weights.dtype == torch.float32 else torch.float64
    out = torch.zeros(length, dtype=dtype, device=input.device)
    keys, totals, _ = segment_reduce(weights.to(dtype), ids, "sum")
    out[keys] = totals
    return out



# --------------------------------------------------------------------------- kthvalue / median


def _select_sorted(input: Tensor, dim: int, position: Tensor, keepdim: bool) -> Tuple[Tensor, Tensor]:
    """The element at sorted `position` (per slice, a tensor broadcastable to the slices)."""
    values, indices = torch.sort(input, dim=dim, stable=True)
    index = position.unsqueeze(dim)
    picked_values = values.gather(dim, index)
    picked_indices = indices.gather(dim, index)
    if not keepdim:
        picked_values = picked_values.squeeze(dim)
        picked_indices = picked_indices.squeeze(dim)
    return picked_values, picked_indices


def _normalise_dim(dim: int, ndim: int) -> int:
    rank = max(ndim, 1)
    if not -rank <= dim < rank:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], but got {dim})")
    return dim % rank


def _slices_shape(input: Tensor, dim: int) -> Sequence[int]:
    return [s for d, s in enumerate(input.shape) if d != dim]


def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> Tuple[Tensor, Tensor]:
    """`torch.kthvalue`: the k-th smallest element per slice (NaN sorts last) and its index.

    Equal values are ordered by their position in the input (a stable sort), so the
    same index is returned on every run.
    """
    scalar = input.dim() == 0
    dim = _normalise_dim(dim, input.dim())
    x = input.unsqueeze(0) if scalar else input
    size = x.shape[dim]
    if not 1 <= k <= size:
        raise IndexError(f"kthvalue(): selected number k out of range for dimension {dim}")
    position = torch.full(_slices_shape(x, dim), k - 1, dtype=torch.int64, device=x.device)
    values, indices = _select_sorted(x, dim, position, keepdim and not scalar)
    if scalar:
        return values.reshape(()), indices.reshape(())
    return values, indices


def median_dim(input: Tensor, dim: int, keepdim: bool = False) -> Tuple[Tensor, Tensor]:
    """`torch.median(input, dim)`: the lower median per slice and its index.

    A slice holding NaN has median NaN, with the index of its first NaN (as torch does).
    """
    scalar = input.dim() == 0
    dim = _normalise_dim(dim, input.dim())
    x = input.unsqueeze(0) if scalar else input
    size = x.shape[dim]
    if size == 0:
        raise IndexError(f"median(): Expected reduction dim {dim} to have non-zero size.")
    valid = ~torch.isnan(x) if x.is_floating_point() else torch.ones_like(x, dtype=torch.bool)
    count = valid.sum(dim)
    # NaN sorts last, so the first NaN of a slice sits at sorted position `count`.
    middle = torch.full_like(count, (size - 1) // 2)
    position = torch.where(count < size, count, middle)
    values, indices = _select_sorted(x, dim, position, keepdim and not scalar)
    if scalar:
        return values.reshape(()), indices.reshape(())
    return values, indices


# --------------------------------------------------------------------------- scatter/index reduce


def _linear_targets(shape: Sequence[int], dim: int, index: Tensor) -> Tensor:
    """For every element of `index`, its target's flat position in a contiguous `shape`."""
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    target = torch.zeros(index.shape, dtype=torch.int64, device=index.device)
    for d in range(index.dim()):
        if d == dim:
            coordinate = index.to(torch.int64)
        else:
            view = [1] * index.dim()
            view[d] = index.shape[d]
            coordinate = torch.arange(index.shape[d], device=index.device).view(view)
        target = target + coordinate * strides[d]
    return target


def _reduce_at(
    self: Tensor, targets: Tensor, values: Tensor, reduce: str, include_self: bool
) -> Tensor:
    """`self` with `values` reduced into flat positions `targets`."""
    flat = self.contiguous().flatten().clone()
    if targets.numel() == 0:
        return flat.view(self.shape)
    targets = targets.flatten()
    values = values.flatten().to(self.dtype)
    if include_self:
        touched = torch.unique(targets)  # sorted, deterministic
        targets = torch.cat([touched, targets])
        values = torch.cat([flat[touched], values])
    keys, totals, counts = segment_reduce(values, targets, reduce)
    if reduce == "mean":
        if self.is_floating_point() or self.is_complex():
            totals = totals / counts.to(totals.dtype)
        else:
            totals = torch.div(totals, counts.to(totals.dtype), rounding_mode="floor")
    flat[keys] = totals.to(flat.dtype)
    return flat.view(self.shape)


def _check_index(index: Tensor, size: int, name: str) -> None:
    if index.numel() and bool(((index < 0) | (index >= size)).any()):
        raise RuntimeError(f"{name}(): index out of bounds for dimension with size {size}")


def scatter_reduce(
    self: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True
) -> Tensor:
    """`Tensor.scatter_reduce` (sum, prod, mean, amax, amin), out of place."""
    _combiner(reduce)
    if self.dim() == 0:
        result = scatter_reduce(self.reshape(1), 0, index.reshape(-1), src.reshape(-1), reduce, include_self=include_self)
        return result.reshape(())
    dim = _normalise_dim(dim, self.dim())
    if index.dim() != self.dim() or src.dim() != self.dim():
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    for d in range(index.dim()):
        if index.shape[d] > src.shape[d] or (d != dim and index.shape[d] > self.shape[d]):
            raise RuntimeError(f"Size does not match at dimension {d} expected index {list(index.shape)} "
                               f"to be no larger than self {list(self.shape)} apart from dimension {dim} "
                               f"and to be no larger than src {list(src.shape)}")
    _check_index(index, self.shape[dim], "scatter_reduce")
    region = src[tuple(slice(0, s) for s in index.shape)]
    return _reduce_at(self, _linear_targets(self.shape, dim, index), region, reduce, include_self)


def index_reduce(
    self: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str, *, include_self: bool = True
) -> Tensor:
    """`Tensor.index_reduce` (prod, mean, amax, amin), out of place."""
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    if self.dim() == 0:
        result = index_reduce(self.reshape(1), 0, index.reshape(-1), source.reshape(-1), reduce, include_self=include_self)
        return result.reshape(())
    dim = _normalise_dim(dim, self.dim())
    if index.dim() > 1:
        raise IndexError("index_reduce_(): Index is supposed to be a vector")
    index = index.reshape(-1)
    if source.dim() != self.dim() or source.shape[dim] != index.numel() or any(
        source.shape[d] != self.shape[d] for d in range(self.dim()) if d != dim
    ):
        raise RuntimeError("index_reduce_(): Source and self must match apart from dimension dim, "
                           "and the number of indices must equal source.size(dim)")
    _check_index(index, self.shape[dim], "index_reduce")
    view = [1] * source.dim()
    view[dim] = index.numel()
    expanded = index.view(view).expand(source.shape)
    return _reduce_at(self, _linear_targets(self.shape, dim, expanded), source, reduce, include_self)
