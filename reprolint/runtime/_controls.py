"""The controls of `reprolint verify --diagnose`, applied in the traced program.

Each holds one source of variance fixed, without a change to the program, as torch is
imported: one thread, DataLoaders without worker processes, deterministic algorithms,
cuDNN's deterministic kernels. (The RNG and hash-seed controls are environment
variables the harness sets: `REPROLINT_LIBRARIES`, `PYTHONHASHSEED`.)
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Iterable

from reprolint.runtime._imports import when_imported

KNOWN = ("workers0", "threads1", "deterministic", "cudnn")


def apply(controls: Iterable[str]) -> None:
    chosen = set(controls)
    if "threads1" in chosen:
        when_imported("torch", _one_thread)
    if "deterministic" in chosen:
        when_imported("torch", _deterministic)
    if "cudnn" in chosen:
        when_imported("torch", _cudnn)
    if "workers0" in chosen:
        when_imported("torch.utils.data", _no_workers)


def _one_thread(torch: ModuleType) -> None:
    torch.set_num_threads(1)


def _deterministic(torch: ModuleType) -> None:
    # warn_only: an op without a deterministic implementation warns instead of raising,
    # so the control observes the program rather than stopping it.
    torch.use_deterministic_algorithms(True, warn_only=True)


def _cudnn(torch: ModuleType) -> None:
    backends = getattr(torch, "backends", None)
    cudnn = getattr(backends, "cudnn", None)
    if cudnn is None:
        return
    cudnn.deterministic = True
    cudnn.benchmark = False
    # The program may turn autotuning on itself later: keep it off.
    cls = type(cudnn)
    try:
        setattr(cls, "benchmark", property(lambda self: False, lambda self, value: None))
    except (TypeError, AttributeError):
        pass


def _no_workers(data: ModuleType) -> None:
    loader = getattr(data, "DataLoader", None)
    if loader is None or getattr(loader, "_reprolint_workers0", False):
        return
    original = loader.__init__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        # DataLoader(dataset, batch_size, shuffle, sampler, batch_sampler, num_workers, ...)
        if len(args) > 5:
            args = (*args[:5], 0, *args[6:])
        else:
            kwargs["num_workers"] = 0
        kwargs.pop("prefetch_factor", None)
        kwargs.pop("persistent_workers", None)
        original(self, *args, **kwargs)

    loader.__init__ = __init__
    loader._reprolint_workers0 = True
