"""Step tracing: digests of every parameter after every optimizer step, as JSON lines.

What one trace line costs, and why it is enough:

* Digest of a tensor = (sum of its raw bit patterns as integers, sum of its values in
  float64). The first is exact: any change to a single element changes it, and integer
  addition does not depend on the reduction order, so it is itself deterministic. The
  second is only for people (how far apart two runs are). Both are one pass over the
  tensor with no copy, and all digests of a step come back in one `tolist()`.
* The last loss is captured without code changes by wrapping `torch.Tensor.backward`
  and `torch.autograd.backward`: the last scalar tensor that was back-propagated before
  an optimizer step is that step's loss. It is read (`.item()`) only at the step.
* The epoch is the number of times the most recently started DataLoader iteration's
  loader has been iterated before (0-based), found by wrapping `DataLoader.__iter__`.
* Parameter names come from the largest `nn.Module` that holds the optimizer's
  parameters, found once per optimizer with the garbage collector.
* Every `torch.save(obj, f)` writes the digests of the tensors in `obj` ("saved"), and
  a process that made no optimizer step digests, at exit, the state of the models still
  alive ("model"): what an evaluation or a hand-written update loop produced.

Files: `trace.<process>.jsonl` in the trace directory, where process is `rank<N>` under
torchrun, `main` for the first Python process, `pid<N>` for any other.
"""

from __future__ import annotations

import atexit
import gc
import json
import os
import threading
import weakref
from types import ModuleType
from typing import Any, Dict, List, Optional, Tuple

from reprolint.runtime import environment

_INT_VIEW = {1: "int8", 2: "int16", 4: "int32", 8: "int64"}


def process_name() -> str:
    """A name for this process that is the same in every run of the same command."""
    rank = os.environ.get("RANK")
    if rank is not None:
        return f"rank{rank}"
    root = os.environ.get(environment.ROOT_PID)
    if root is None or root == str(os.getpid()):
        return "main"
    return f"pid{os.getpid()}"


def jsonable(value: Any) -> Any:
    """Convert what programs log (tensors, arrays, NumPy scalars) to plain JSON values.

    Floats stay exact: JSON writes the shortest repr, which reads back to the same float.
    A tensor or array with more than one element becomes its list of values.
    """
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if hasattr(value, "detach"):  # torch.Tensor, without importing torch
        value = value.detach().cpu()
        return value.item() if value.numel() == 1 and value.dim() == 0 else value.tolist()
    if hasattr(value, "tolist"):  # NumPy arrays and scalars
        return value.tolist()
    return repr(value)


class _OptimizerInfo:
    def __init__(self, index: int, params: List[Any]) -> None:
        self.index = index
        self.params = params
        self.count = len(params)


class Tracer:
    """Appends trace records for one process; safe to inherit across fork."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self._file: Optional[Any] = None
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self.step = 0
        self.last_loss: Any = None
        self.epoch: Optional[int] = None
        self._optimizers: "weakref.WeakKeyDictionary[Any, _OptimizerInfo]" = (
            weakref.WeakKeyDictionary()
        )
        self._loader_epochs: "weakref.WeakKeyDictionary[Any, int]" = weakref.WeakKeyDictionary()
        atexit.register(self.close)

    # -- writing ---------------------------------------------------------------------

    def write(self, record: Dict[str, Any]) -> None:
        line = json.dumps(record, separators=(",", ":"), allow_nan=True)
        with self._lock:
            if os.getpid() != self._pid:  # a forked child: never write into the parent's file
                self._file = None
                self._pid = os.getpid()
            if self._file is None:
                self._open()
            assert self._file is not None
            self._file.write(line + "\n")

    def _open(self) -> None:
        os.makedirs(self.directory, exist_ok=True)
        name = process_name()
        path = os.path.join(self.directory, f"trace.{name}.jsonl")
        # Line-buffered: a crash loses at most the line being written.
        self._file = open(path, "a", buffering=1, encoding="utf-8")
        header = {
            "k": "process",
            "name": name,
            "pid": os.getpid(),
            "rank": os.environ.get("RANK"),
            "world_size": os.environ.get("WORLD_SIZE"),
        }
        self._file.write(json.dumps(header) + "\n")

    def close(self) -> None:
        with self._lock:
            if self._file is not None and os.getpid() == self._pid:
                self._file.close()
            self._file = None

    # -- torch hooks -------------------------------------------------------------------

    def attach_torch(self, torch: ModuleType) -> None:
        """Register the global optimizer hooks and the loss/epoch wrappers."""
        import importlib

        self._torch = torch
        self.attach_optimizer_hooks()
        self._wrap_backward(torch)
        self._wrap_dataloader(importlib.import_module("torch.utils.data"))
        self._wrap_save(torch)
        # Registered after the tracer's own `close` (atexit runs last-in first-out).
        atexit.register(self._models_at_exit)

    def attach_optimizer_hooks(self) -> None:
        """Digest the parameters after every optimizer step, of every optimizer."""
        import importlib

        optimizer_module = importlib.import_module("torch.optim.optimizer")
        self._hook_handles = [
            optimizer_module.register_optimizer_step_pre_hook(self._before_step),
            optimizer_module.register_optimizer_step_post_hook(self._after_step),
        ]

    def detach_optimizer_hooks(self) -> None:
        """Stop tracing steps (the benchmark toggles this to time the hooks alone)."""
        for handle in getattr(self, "_hook_handles", []):
            handle.remove()
        self._hook_handles = []

    def _wrap_backward(self, torch: ModuleType) -> None:
        tracer = self
        tensor_backward = torch.Tensor.backward
        autograd_backward = torch.autograd.backward

        def backward(self: Any, *args: Any, **kwargs: Any) -> Any:
            if self.numel() == 1:
                tracer.last_loss = self.detach()
            return tensor_backward(self, *args, **kwargs)

        def autograd_backward_wrapper(tensors: Any, *args: Any, **kwargs: Any) -> Any:
            if hasattr(tensors, "numel") and tensors.numel() == 1:
                tracer.last_loss = tensors.detach()
            return autograd_backward(tensors, *args, **kwargs)

        backward.__wrapped__ = tensor_backward  # type: ignore[attr-defined]
        backward.__doc__ = tensor_backward.__doc__
        autograd_backward_wrapper.__wrapped__ = autograd_backward  # type: ignore[attr-defined]
        autograd_backward_wrapper.__doc__ = autograd_backward.__doc__
        torch.Tensor.backward = backward
        torch.autograd.backward = autograd_backward_wrapper

    def _wrap_dataloader(self, data: ModuleType) -> None:
        tracer = self
        loader_cls = data.DataLoader
        original_iter = loader_cls.__iter__

        def __iter__(self: Any) -> Any:
            count = tracer._loader_epochs.get(self, 0)
            tracer._loader_epochs[self] = count + 1
            tracer.epoch = count
            return original_iter(self)

        __iter__.__wrapped__ = original_iter  # type: ignore[attr-defined]
        loader_cls.__iter__ = __iter__

    def _wrap_save(self, torch: ModuleType) -> None:
        """Digest the tensors of every `torch.save(obj, f)`: the files a program writes
        are compared without `--artifact`."""
        import importlib

        tracer = self
        serialization = importlib.import_module("torch.serialization")
        original_save = serialization.save

        def save(obj: Any, f: Any, *args: Any, **kwargs: Any) -> Any:
            result = original_save(obj, f, *args, **kwargs)
            try:
                tracer.note_saved(obj, f)
            except Exception:  # tracing must never break the program's save
                pass
            return result

        save.__wrapped__ = original_save  # type: ignore[attr-defined]
        save.__doc__ = original_save.__doc__
        serialization.save = save
        if getattr(torch, "save", None) is original_save:
            torch.save = save

    def note_saved(self, obj: Any, f: Any) -> None:
        names, tensors = saved_tensors(self._torch, obj)
        if isinstance(f, (str, bytes)) or hasattr(f, "__fspath__"):
            target = os.fsdecode(os.fspath(f))
        else:
            target = str(getattr(f, "name", "<stream>"))
        self.write({"k": "saved", "file": target, "names": names, "d": digests(self._torch, tensors)})

    def _models_at_exit(self) -> None:
        """Without an optimizer step, the models alive at exit are what the run produced
        (an evaluation, a hand-written update loop): digest their state."""
        if self.step or getattr(self, "_torch", None) is None:
            return
        try:
            for name, names, tensors in live_models(self._torch):
                self.write({"k": "model", "name": name, "names": names, "d": digests(self._torch, tensors)})
        except Exception:  # at exit, a failure to digest must not change the exit status
            pass

    def _info(self, optimizer: Any) -> _OptimizerInfo:
        params = [p for group in optimizer.param_groups for p in group["params"]]
        info = self._optimizers.get(optimizer)
        if info is not None and info.count == len(params):
            return info
        index = info.index if info is not None else len(self._optimizers)
        info = _OptimizerInfo(index, params)
        self._optimizers[optimizer] = info
        names = parameter_names(self._torch, params)
        self.write(
            {
                "k": "optimizer",
                "opt": index,
                "class": type(optimizer).__name__,
                "names": names,
                "shapes": [list(p.shape) for p in params],
            }
        )
        self.write({"k": "init", "opt": index, "d": digests(self._torch, params)})
        return info

    def _before_step(self, optimizer: Any, args: Any, kwargs: Any) -> None:
        # Only to digest the initial parameters (step 0) the first time.
        self._info(optimizer)

    def _after_step(self, optimizer: Any, args: Any, kwargs: Any) -> None:
        info = self._info(optimizer)
        self.step += 1
        loss = self.last_loss
        self.last_loss = None
        record: Dict[str, Any] = {
            "k": "step",
            "n": self.step,
            "opt": info.index,
            "loss": _loss_value(loss),
            "d": digests(self._torch, info.params),
        }
        if self.epoch is not None:
            record["epoch"] = self.epoch
        self.write(record)


def _loss_value(loss: Any) -> Optional[float]:
    if loss is None:
        return None
    try:
        return float(loss.item())
    except Exception:  # a loss that cannot be read is reported as missing, not a crash
        return None


def digests(torch: ModuleType, params: List[Any]) -> List[Tuple[int, Optional[float]]]:
    """(bit-pattern sum, float64 sum) of every tensor, in one host transfer per device."""
    bits, sums = [], []
    with torch.no_grad():
        for p in params:
            t = p.detach()
            if t.is_sparse or t.numel() == 0:
                bits.append(torch.zeros((), dtype=torch.int64, device=t.device))
                sums.append(torch.zeros((), dtype=torch.float64, device=t.device))
                continue
            view = getattr(torch, _INT_VIEW.get(t.element_size(), "int8"))
            if t.is_complex():
                t = torch.view_as_real(t)
            bits.append(t.view(view).sum(dtype=torch.int64))
            sums.append(t.sum(dtype=torch.float64))
        try:
            bit_list = torch.stack(bits).tolist()
            sum_list = torch.stack(sums).tolist()
        except RuntimeError:  # parameters on several devices
            bit_list = [b.item() for b in bits]
            sum_list = [s.item() for s in sums]
    return [[b, s] for b, s in zip(bit_list, sum_list)]  # type: ignore[misc]


def parameter_names(torch: ModuleType, params: List[Any]) -> List[str]:
    """Names like `layer1.0.conv1.weight`, from the largest module holding each tensor.

    The module that holds the most parameters is the model (or its DDP wrapper); among
    equals the shortest name wins, so `fc.weight` is preferred over `module.fc.weight`.
    """
    wanted = {id(p) for p in params}
    best: Dict[int, Tuple[int, int, str]] = {}
    module_type = torch.nn.Module
    for obj in gc.get_objects():
        # type(), not isinstance(): some lazy objects warn when asked for __class__.
        if not issubclass(type(obj), module_type):
            continue
        try:
            named = list(obj.named_parameters())
        except Exception:
            continue
        if not any(id(p) in wanted for _, p in named):
            continue
        size = len(named)
        for name, p in named:
            if id(p) in wanted:
                rank = (-size, len(name), name)
                if id(p) not in best or rank < best[id(p)]:
                    best[id(p)] = rank
    return [best[id(p)][2] if id(p) in best else f"param{i}" for i, p in enumerate(params)]


MAX_SAVED_TENSORS = 100_000


def saved_tensors(torch: ModuleType, obj: Any) -> Tuple[List[str], List[Any]]:
    """The tensors inside what a program saves, with a path to each (`model.fc.weight`,
    `optimizer.state.0.exp_avg`); modules contribute their state_dict."""
    names: List[str] = []
    tensors: List[Any] = []
    seen: set = set()

    def walk(value: Any, path: str, depth: int) -> None:
        if len(tensors) >= MAX_SAVED_TENSORS or depth > 32:
            return
        if isinstance(value, torch.Tensor):
            names.append(path or "tensor")
            tensors.append(value)
            return
        if id(value) in seen:
            return
        if isinstance(value, torch.nn.Module):
            seen.add(id(value))
            value = value.state_dict()
        if isinstance(value, dict):
            seen.add(id(value))
            for key, item in value.items():
                walk(item, f"{path}.{key}" if path else str(key), depth + 1)
        elif isinstance(value, (list, tuple)):
            seen.add(id(value))
            for index, item in enumerate(value):
                walk(item, f"{path}.{index}" if path else str(index), depth + 1)

    walk(obj, "", 0)
    return names, tensors


def live_models(torch: ModuleType) -> List[Tuple[str, List[str], List[Any]]]:
    """Every `nn.Module` alive now that is no other live module's submodule, with its
    state_dict: (`RNNModel`, names, tensors), in an order that does not depend on memory
    addresses (class name, then size; equal ones keep creation order)."""
    module_type = torch.nn.Module
    modules = [obj for obj in gc.get_objects() if issubclass(type(obj), module_type)]
    inner: set = set()
    for module in modules:
        try:
            inner.update(id(m) for m in module.modules() if m is not module)
        except Exception:
            continue
    found = []
    for module in modules:
        if id(module) in inner:
            continue
        try:
            state = module.state_dict()
        except Exception:
            continue
        names = [k for k, v in state.items() if isinstance(v, torch.Tensor)]
        if names:
            found.append((type(module).__qualname__, names, [state[k] for k in names]))
    found.sort(key=lambda m: (m[0], len(m[1]), sum(t.numel() for t in m[2])))
    counts: Dict[str, int] = {}
    named = []
    for cls, names, tensors in found:
        counts[cls] = counts.get(cls, 0) + 1
        label = cls if counts[cls] == 1 else f"{cls}#{counts[cls]}"
        named.append((label, names, tensors))
    return named


_tracer: Optional[Tracer] = None
_tracer_lock = threading.Lock()


def enable(directory: str) -> Tracer:
    """Start tracing into `directory` (idempotent); hooks torch when it is imported."""
    global _tracer
    with _tracer_lock:
        if _tracer is not None:
            return _tracer
        _tracer = Tracer(directory)
    from reprolint.runtime._imports import when_imported

    when_imported("torch", _tracer.attach_torch)
    return _tracer


def current() -> Optional[Tracer]:
    """The active tracer, started from REPROLINT_TRACE_DIR on first use if set."""
    if _tracer is None:
        directory = os.environ.get(environment.TRACE_DIR)
        if directory:
            return enable(directory)
    return _tracer


def note_warning(message: str) -> None:
    """Copy a runtime warning into the trace, so that verify can show it."""
    tracer = current()
    if tracer is not None:
        tracer.write({"k": "warning", "message": message})
