"""Runtime support: record/replay of randomness, determinism flags and step tracing.

    import reprolint.runtime
    reprolint.runtime.install()          # record (default), or REPROLINT_MODE=replay

Importing this package never imports torch, NumPy or TensorFlow: they are seeded and
hooked when the program imports them, and only if it does.

`trace()` and `metric()` write to the trace that `reprolint verify` compares; outside
`verify` (no `REPROLINT_TRACE_DIR` in the environment) they do nothing and cost nothing.
"""

from __future__ import annotations

from typing import Any, List

from reprolint.runtime import _trace
from reprolint.runtime._determinism import DeterminismWarning
from reprolint.runtime._session import ReplayMismatchWarning, install, seed

__all__ = [
    "DeterminismWarning",
    "ReplayMismatchWarning",
    "install",
    "metric",
    "patch",
    "seed",
    "trace",
    "unpatch",
]


def trace(step: int, **values: Any) -> None:
    """Log values for `step` (e.g. `trace(step, loss=loss, lr=lr)`) for verify to compare.

    Tensors and arrays are logged exactly: a one-element one as its number, a larger one
    as its list of values (prefer a digest or a small slice for large tensors).
    """
    tracer = _trace.current()
    if tracer is not None:
        tracer.write({"k": "trace", "step": step, "values": _trace.jsonable(values)})


def metric(name: str, value: Any) -> None:
    """Log a metric: overall (`metric("accuracy", 0.91)`), per class (a dict or a list,
    `metric("per_class_accuracy", accs)`) or per sample (`metric("predictions", preds)`).

    verify compares every logged value exactly, in the order logged; for lists and dicts
    it reports how many entries differ.
    """
    tracer = _trace.current()
    if tracer is not None:
        tracer.write({"k": "metric", "name": name, "value": _trace.jsonable(value)})


def patch() -> List[str]:
    """Replace, on CUDA tensors, the ops with no deterministic CUDA kernel in this torch.

    Which ops comes from reprolint's op catalog (`histc`, `bincount(weights=)`,
    `median(dim)`, `scatter_reduce(reduce="prod")`, `index_reduce`, and `kthvalue` before
    torch 2.10); the replacements are built from sorts and elementwise ops. Returns the
    ops replaced. `install(patch=True)` calls it when torch is imported. Imports torch.
    """
    from reprolint.runtime import patches

    return patches.patch()


def unpatch() -> None:
    """Undo `patch()`: torch's own kernels again."""
    from reprolint.runtime import patches

    patches.unpatch()
