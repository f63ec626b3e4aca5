"""`patch()`: deterministic CUDA kernels for ops that have none in the running torch.

    import reprolint.runtime
    reprolint.runtime.patch()            # or install(patch=True)

Which ops are replaced comes from the op catalog (`rules/nondeterministic_ops.toml`):
an op is patched when the catalog says that, in the running torch version, it raises
under `torch.use_deterministic_algorithms(True)` on CUDA, i.e. it has no deterministic
CUDA implementation at all, and reprolint has a replacement for it (see `PATCHES`).
`index_reduce` is the one exception: the catalog (which follows the determinism flag's
docstring) does not list it, because the flag neither fixes it nor makes it raise, but
its own documentation says it is nondeterministic on CUDA.

The replacements are registered with the dispatcher as the ops' CUDA kernels, so they
engage only for CUDA tensors, wherever the op is called from (Python, `torch.nn`, C++),
and autograd formulas are unchanged. Within a patched op, the catalog's argument
conditions decide per call (`bincount` only with `weights`, `scatter_reduce` only with
`reduce="prod"`); other calls go to torch's own kernel. The replacements are built
from sorts and elementwise ops (`reprolint.runtime._patch_ops`) and are slower than the
kernels they replace; `unpatch()` puts the originals back.
"""

from __future__ import annotations

import threading
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

__all__ = ["PATCHES", "OpPatch", "patch", "patched", "planned", "unpatch"]

INDEX_REDUCE_REFERENCE = "https://docs.pytorch.org/docs/stable/generated/torch.Tensor.index_reduce_.html"


@dataclass(frozen=True)
class OpPatch:
    """One replaceable op: its aten overloads, its name in the catalog, its replacement."""

    op: str  # the aten op, as profile reports it ("aten::histc")
    overloads: Tuple[str, ...]  # registered overloads ("median.dim")
    catalog_name: str  # the catalog's spelling of the method ("Tensor.histc")
    implementation: str  # the function in reprolint.runtime._patch_ops
    in_place: Tuple[str, ...] = ()  # overloads that write into `self`
    uncatalogued: Optional[str] = None  # why it is patched without a catalog entry


PATCHES: Tuple[OpPatch, ...] = (
    OpPatch("aten::histc", ("histc",), "Tensor.histc", "histc"),
    OpPatch("aten::bincount", ("bincount",), "Tensor.bincount", "bincount"),
    OpPatch("aten::kthvalue", ("kthvalue",), "Tensor.kthvalue", "kthvalue"),
    OpPatch("aten::median", ("median.dim",), "Tensor.median", "median_dim"),
    OpPatch(
        "aten::scatter_reduce", ("scatter_reduce.two", "scatter_reduce_.two"),
        "Tensor.scatter_reduce", "scatter_reduce", in_place=("scatter_reduce_.two",),
    ),
    OpPatch(
        "aten::index_reduce", ("index_reduce", "index_reduce_"),
        "Tensor.index_reduce_", "index_reduce", in_place=("index_reduce_",),
        uncatalogued=f"nondeterministic on CUDA with no deterministic variant ({INDEX_REDUCE_REFERENCE})",
    ),
)


def _torch_version() -> str:
    import torch

    return str(torch.__version__)


def _entries(spec: OpPatch, version: str) -> List[Any]:
    from reprolint.catalog.ops import lookup

    return [
        entry for entry in lookup(spec.catalog_name, version)
        if entry.kind == "raises" and entry.device in ("cuda", "any")
    ]


def planned(version: Optional[str] = None) -> List[OpPatch]:
    """The patches that apply to torch `version` (default: the installed one)."""
    version = version or _torch_version()
    return [spec for spec in PATCHES if spec.uncatalogued or _entries(spec, version)]


def engages(spec: OpPatch, args: Sequence[Any], kwargs: Mapping[str, Any], version: Optional[str] = None) -> bool:
    """Whether a call of the op with these (aten-level) arguments is replaced.

    The catalog entry's argument conditions decide (`self` is not counted in them).
    """
    if spec.uncatalogued:
        return True
    version = version or _torch_version()
    return any(
        entry.match_call(spec.catalog_name, list(args[1:]), dict(kwargs)) is not False
        for entry in _entries(spec, version)
    )


class _Patched:
    """The registrations of one `patch()`: a library object per dispatch key."""

    def __init__(self, key: str, library: Any, ops: List[str]) -> None:
        self.key = key
        self.library = library
        self.ops = ops
        self.calls: Dict[str, int] = {}  # replaced calls per op (tests and benchmarks read it)


_state: Optional[_Patched] = None
_lock = threading.Lock()


def _kernel(spec: OpPatch, overload: str, original: Any, version: str, counter: Dict[str, int]) -> Callable[..., Any]:
    from reprolint.runtime import _patch_ops

    implementation = getattr(_patch_ops, spec.implementation)
    in_place = overload in spec.in_place

    def kernel(keyset: Any, *args: Any, **kwargs: Any) -> Any:
        if original is not None and not engages(spec, args, kwargs, version):
            return original.call_boxed(keyset, *args, **kwargs)
        counter[spec.op] = counter.get(spec.op, 0) + 1
        result = implementation(*args, **kwargs)
        if in_place:
            return args[0].copy_(result)
        return result

    kernel.__name__ = f"reprolint_deterministic_{spec.implementation}"
    return kernel


def _original(torch: Any, overload: str, key: str) -> Any:
    """torch's own kernel for `overload` at `key`, to call when a patch does not engage."""
    qualified = "aten::" + overload
    getter = getattr(torch._C, "_dispatch_get_computed_kernel_for_dispatch_key", None)
    if getter is None:  # older torch: the replacement serves every call (it is correct for all)
        return None
    try:
        if not torch._C._dispatch_has_computed_kernel_for_dispatch_key(qualified, key):
            return None
        return getter(qualified, key)
    except Exception:
        return None


def patch(*, _dispatch_key: str = "CUDA") -> List[str]:
    """Replace, on CUDA tensors, the ops that have no deterministic CUDA kernel.

    Returns the ops replaced (e.g. `["aten::histc", "aten::bincount", ...]`). Calling it
    again changes nothing. (`_dispatch_key` lets the tests register on CPU instead.)
    """
    global _state
    import torch

    with _lock:
        if _state is not None:
            return list(_state.ops)
        version = str(torch.__version__)
        specs = planned(version)
        library = torch.library.Library("aten", "IMPL")
        counter: Dict[str, int] = {}
        with warnings.catch_warnings():
            # "Overriding a previously registered kernel": that is the point.
            warnings.simplefilter("ignore")
            for spec in specs:
                for overload in spec.overloads:
                    original = _original(torch, overload, _dispatch_key)
                    library.impl(
                        overload, _kernel(spec, overload, original, version, counter),
                        _dispatch_key, with_keyset=True,
                    )
        _state = _Patched(_dispatch_key, library, [spec.op for spec in specs])
        _state.calls = counter
        return list(_state.ops)


def unpatch() -> None:
    """Put torch's own kernels back."""
    global _state
    with _lock:
        if _state is None:
            return
        _state.library._destroy()
        _state = None


def patched() -> List[str]:
    """The ops replaced now (empty before `patch()` or after `unpatch()`)."""
    state = _state
    return list(state.ops) if state is not None else []


def replaced_calls() -> Dict[str, int]:
    """How many calls each patched op served with its replacement since `patch()`."""
    state = _state
    return dict(state.calls) if state is not None else {}
