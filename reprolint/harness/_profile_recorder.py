"""The op recorder that `reprolint profile` injects into the program it runs.

Started by the injected `sitecustomize` when `REPROLINT_PROFILE_OUT` is set; hooks torch
when the program imports it. Every op dispatched in the main thread of the main process
goes through a `TorchDispatchMode`, which records:

* the op's name (`aten::index_add_`, or a custom op's `ns::name`);
* a digest of every tensor input (taken before the op runs, since it may write into
  one) and every tensor output, plus the shapes, dtypes and non-tensor arguments;
* the innermost `nn.Module` running (global forward hooks keep a stack), and for
  backward ops the autograd node that ran them; whether it ran inside `optimizer.step`.

Digest of a tensor: its raw bits read as 32-bit integers, each multiplied (modulo 2**32)
by a fixed odd weight that depends on its position, summed in 64 bits. Any change to
one element changes it (an odd weight is invertible modulo 2**32), so does moving an
element (a permutation), and integer addition does not depend on the reduction order,
so the digest itself is exact and deterministic. A tensor's digest is kept while its
version counter, data pointer and shape stay the same, so that a parameter or an
activation used by several ops is read once. Memory that an `empty` op allocated and nothing wrote yet has no
digest: its contents are whatever was there before.

Training steps are what is instrumented: until the first forward of an `nn.Module`,
the first backward or the first optimizer step, only ops that draw from a random
generator are recorded; the others (data preparation, often hundreds of thousands of
small ops) run unrecorded, and what they produced is digested where the model first
reads it, so a difference there still shows, as differing inputs. `<out>.progress`
holds `ops steps skipped` while it runs, for the harness's live line.

After `REPROLINT_PROFILE_STEPS` optimizer steps the record is written as JSON to
`REPROLINT_PROFILE_OUT` and the process ends (`os._exit(0)`). Python stacks are not
recorded: `REPROLINT_PROFILE_CAPTURE=<op index>` runs the program again up to that op
and records its stack, module path and (for backward ops, from anomaly mode) the
forward stack that created it, then ends the process.
"""

from __future__ import annotations

import json
import linecache
import os
import sys
import sysconfig
import threading
import weakref
from types import FrameType, ModuleType
from typing import Any, Dict, List, Optional, Tuple

from reprolint.runtime import environment as _env

ENV_OUT = _env.PROFILE_OUT
ENV_STEPS = _env.PROFILE_STEPS
ENV_CAPTURE = _env.PROFILE_CAPTURE
ENV_CAPTURE_BACKWARD = _env.PROFILE_CAPTURE_BACKWARD
MAX_OPS = 2_000_000  # a program without optimizer steps stops being recorded here
ROOT_NAME = "model"  # the outermost module; the report names it after the program's variable
FLAG_RANDOM = 1  # the op draws from a random generator
FLAG_OPTIMIZER = 2  # the op ran inside optimizer.step()

_MODULE_KEY = "reprolint_module"
_WEIGHT_CACHE_ELEMENTS = 1 << 25
_GOLDEN = 2654435761
_EMPTY_OPS = frozenset({
    "aten::empty", "aten::empty_like", "aten::empty_strided", "aten::new_empty",
    "aten::new_empty_strided", "aten::empty_permuted",
})


def _skip_dirs() -> Tuple[str, ...]:
    """Frames in these folders are not the user's: torch, reprolint, the standard library."""
    import reprolint

    dirs = [os.path.dirname(os.path.abspath(reprolint.__file__))]
    torch = sys.modules.get("torch")
    if torch is not None and getattr(torch, "__file__", None):
        dirs.append(os.path.dirname(os.path.abspath(torch.__file__)))
    for key in ("stdlib", "platstdlib"):
        path = sysconfig.get_paths().get(key)
        if path:
            dirs.append(os.path.abspath(path))
    return tuple(d + os.sep for d in dirs)


def is_user_file(filename: str, skip: Tuple[str, ...]) -> bool:
    if not filename or filename.startswith("<frozen"):
        return False
    return not os.path.abspath(filename).startswith(skip)


class Recorder:
    """Everything one profiled process records."""

    def __init__(self, out: str, steps: int, capture: Optional[int], capture_backward: bool) -> None:
        self.out = out
        self.max_steps = steps
        self.capture = capture
        self.capture_backward = capture_backward
        self.pid = os.getpid()
        self.thread = threading.get_ident()
        self.ops: List[List[Any]] = []
        self.tables: Dict[str, Dict[str, int]] = {"names": {}, "meta": {}, "modules": {}, "nodes": {}}
        self.values: Dict[str, List[str]] = {table: [] for table in self.tables}
        self.steps = 0
        self.boundaries: List[int] = []
        self.in_step = False
        self.stack: List[Tuple[Any, int]] = []  # (module, module id in the table)
        self.roots: "weakref.WeakKeyDictionary[Any, Dict[int, str]]" = weakref.WeakKeyDictionary()
        self.uninitialised: set = set()
        self.weights: Dict[Tuple[int, str], Any] = {}
        self.known: Dict[int, Tuple[Any, Tuple[Any, ...], int]] = {}
        self.random_ops: Dict[Any, bool] = {}
        self.finished = False
        self.training = False  # the gate: a module forward, a backward or a step ran
        self.skipped = 0  # ops before it, not recorded
        self.torch: Any = None
        self.mode: Any = None

    # -- tables --------------------------------------------------------------------

    def intern(self, table: str, value: str) -> int:
        ids = self.tables[table]
        found = ids.get(value)
        if found is None:
            found = ids[value] = len(ids)
            self.values[table].append(value)
        return found

    # -- torch hooks ---------------------------------------------------------------

    def attach(self, torch: ModuleType) -> None:
        import importlib

        from torch.utils._python_dispatch import TorchDispatchMode

        self.torch = torch
        recorder = self

        class OpRecorderMode(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
                return recorder.dispatch(func, args, kwargs or {})

        modules = importlib.import_module("torch.nn.modules.module")
        modules.register_module_forward_pre_hook(self._enter_module)
        modules.register_module_forward_hook(self._leave_module, always_call=True)
        optimizer = importlib.import_module("torch.optim.optimizer")
        optimizer.register_optimizer_step_pre_hook(self._before_step)
        optimizer.register_optimizer_step_post_hook(self._after_step)
        if self.capture is not None and self.capture_backward:
            # The forward stack of every autograd node, for the op that diverged.
            try:
                torch.autograd.set_detect_anomaly(True, check_nan=False)
            except TypeError:  # torch < 2.0 has no check_nan
                torch.autograd.set_detect_anomaly(True)
        self.mode = OpRecorderMode()
        self.mode.__enter__()

    def _enter_module(self, module: Any, args: Any) -> None:
        if self.finished or threading.get_ident() != self.thread:
            return
        if self.stack:
            root = self.stack[0][0]
            names = self.roots.get(root)
            name = names.get(id(module)) if names is not None else None
            if name is None:
                parent = self.tables_path(self.stack[-1][1])
                name = f"{parent}.{type(module).__name__}"
        else:
            self.training = True
            names = self.roots.get(module)
            if names is None:
                names = {id(m): (f"{ROOT_NAME}.{n}" if n else ROOT_NAME) for n, m in module.named_modules()}
                self.roots[module] = names
            name = ROOT_NAME
        self.stack.append((module, self.intern("modules", f"{name}\t{type(module).__name__}")))

    def tables_path(self, module_id: int) -> str:
        return self.values["modules"][module_id].split("\t", 1)[0]

    def _leave_module(self, module: Any, args: Any, output: Any) -> None:
        if self.finished or threading.get_ident() != self.thread:
            return
        if self.stack and self.stack[-1][0] is module:
            _, module_id = self.stack.pop()
            if self.capture is not None and self.capture_backward:
                self._tag_autograd_nodes(output, module_id)

    def _tag_autograd_nodes(self, output: Any, module_id: int) -> None:
        """Name the module that created each autograd node (capture run only)."""
        from torch.utils._pytree import tree_flatten

        pending = [
            t.grad_fn for t in tree_flatten(output)[0]
            if isinstance(t, self.torch.Tensor) and t.grad_fn is not None
        ]
        while pending:
            node = pending.pop()
            if node is None:
                continue
            try:
                metadata = node.metadata
            except Exception:
                continue
            if _MODULE_KEY in metadata:
                continue
            metadata[_MODULE_KEY] = module_id
            pending.extend(next_node for next_node, _ in node.next_functions)

    def _before_step(self, optimizer: Any, args: Any, kwargs: Any) -> None:
        self.in_step = True
        self.training = True

    def _after_step(self, optimizer: Any, args: Any, kwargs: Any) -> None:
        self.in_step = False
        if self.finished or os.getpid() != self.pid:
            return
        self.steps += 1
        self.boundaries.append(len(self.ops))
        self.write_progress()
        if self.steps >= self.max_steps:
            self.finish(complete=True)

    # -- recording -----------------------------------------------------------------

    def dispatch(self, func: Any, args: Any, kwargs: Dict[str, Any]) -> Any:
        if self.finished or os.getpid() != self.pid or threading.get_ident() != self.thread:
            return func(*args, **kwargs)
        node = self.torch._C._current_autograd_node()
        if not self.training:
            if node is None and not self.is_random(func):
                return self.skip(func, args, kwargs)
            self.training = node is not None
        index = len(self.ops)
        if index == self.capture:
            self.capture_here(func)
        name = func._schema.name
        inputs, input_meta, input_ids = self.digest_inputs(args, kwargs)
        out = func(*args, **kwargs)
        outputs, output_meta = self.digest_outputs(name, func, out, input_ids)
        if node is not None:
            where = -1 - self.intern("nodes", node.name())
        elif self.stack:
            where = self.stack[-1][1]
        else:
            where = None
        self.ops.append([
            self.intern("names", name), inputs, self.intern("meta", input_meta),
            outputs, self.intern("meta", output_meta), where,
            (FLAG_RANDOM if self.is_random(func) else 0) | (FLAG_OPTIMIZER if self.in_step else 0),
        ])
        if len(self.ops) % 20_000 == 0:
            self.write_progress()
        if len(self.ops) >= MAX_OPS:
            self.finish(complete=False, exit_process=False)
        return out

    def skip(self, func: Any, args: Any, kwargs: Dict[str, Any]) -> Any:
        """An op before training: run, not recorded; memory it allocates (or writes into)
        keeps its initialised-or-not state for the ops that are recorded."""
        self.skipped += 1
        if self.skipped % 50_000 == 0:
            self.write_progress()
        out = func(*args, **kwargs)
        name = func._schema.name
        if name in _EMPTY_OPS or (self.uninitialised and not getattr(func, "is_view", False)):
            from torch.utils._pytree import tree_flatten

            for t in tree_flatten(out)[0]:
                if isinstance(t, self.torch.Tensor):
                    key = _storage_key(t)
                    if name in _EMPTY_OPS:
                        self.uninitialised.add(key)
                    else:
                        self.uninitialised.discard(key)
        return out

    def write_progress(self) -> None:
        try:
            with open(self.out + ".progress", "w", encoding="utf-8") as handle:
                handle.write(f"{len(self.ops)} {self.steps} {self.skipped}")
        except OSError:
            pass

    def is_random(self, func: Any) -> bool:
        found = self.random_ops.get(func)
        if found is None:
            # Ops that take a Generator draw from it; their overloads without one
            # (`randn.default`, `randperm.default`, `native_dropout`) draw from the global
            # generator and carry torch's `nondeterministic_seeded` tag instead.
            tag = getattr(getattr(self.torch, "Tag", None), "nondeterministic_seeded", None)
            found = (tag is not None and tag in getattr(func, "tags", ())) or any(
                "Generator" in str(a.type) for a in func._schema.arguments
            )
            self.random_ops[func] = found
        return found

    def digest_inputs(self, args: Any, kwargs: Dict[str, Any]) -> Tuple[List[Any], str, set]:
        from torch.utils._pytree import tree_flatten

        leaves = tree_flatten((args, kwargs))[0]
        tensors, meta = [], []
        for leaf in leaves:
            if isinstance(leaf, self.torch.Tensor):
                tensors.append(leaf)
                meta.append(_tensor_meta(leaf))
                continue
            storage = self._storage_bytes(leaf)
            if storage is not None:
                # `set_(storage)`: data that torch.load or a DataLoader worker made.
                tensors.append(storage)
                meta.append(f"storage[{storage.numel()}]")
            else:
                meta.append(_leaf_repr(leaf))
        digests = self.digests(tensors)
        for i, t in enumerate(tensors):
            if self.uninitialised and _storage_key(t) in self.uninitialised:
                digests[i] = None
        return digests, ";".join(meta), {id(t) for t in tensors}

    def _storage_bytes(self, leaf: Any) -> Any:
        torch = self.torch
        if isinstance(leaf, torch.TypedStorage):
            leaf = leaf._untyped_storage
        if not isinstance(leaf, torch.UntypedStorage):
            return None
        try:
            return torch.empty(0, dtype=torch.uint8, device=leaf.device).set_(leaf)
        except Exception:
            return None

    def digest_outputs(self, name: str, func: Any, out: Any, input_ids: set) -> Tuple[List[Any], str]:
        from torch.utils._pytree import tree_flatten

        tensors = [t for t in tree_flatten(out)[0] if isinstance(t, self.torch.Tensor)]
        meta = ";".join(_tensor_meta(t) for t in tensors)
        if name in _EMPTY_OPS:
            for t in tensors:
                key = _storage_key(t)
                if key is not None:
                    self.uninitialised.add(key)
            return [None] * len(tensors), meta
        if self.uninitialised and not getattr(func, "is_view", False):
            for t in tensors:
                self.uninitialised.discard(_storage_key(t))
        return self.digests(tensors, fresh=input_ids), meta

    def digests(self, tensors: List[Any], fresh: Any = None) -> List[Any]:
        """Digests of `tensors`; those in `fresh` (outputs) are read again, never cached.

        An in-place op's output is its input, modified: its version counter is bumped
        only after the op returns, so the cache cannot tell the two apart.
        """
        if not tensors:
            return []
        torch = self.torch
        parts: List[Any] = []
        positions: List[int] = []
        result: List[Any] = [None] * len(tensors)
        keys: List[Any] = [None] * len(tensors)
        with torch.no_grad():
            for i, t in enumerate(tensors):
                key = None if fresh is not None and id(t) in fresh else _cache_key(t)
                cached = self.known.get(id(t)) if key is not None else None
                if cached is not None and cached[0]() is t and cached[1] == key:
                    result[i] = cached[2]
                    continue
                part = self._digest(t)
                if part is not None:
                    parts.append(part)
                    positions.append(i)
                    keys[i] = key
            if not parts:
                return result
            try:
                values = torch.stack(parts).tolist()
            except RuntimeError:  # tensors on several devices
                values = [p.item() for p in parts]
        for i, value in zip(positions, values):
            result[i] = value
            if keys[i] is not None:
                self._remember(tensors[i], keys[i], value)
        return result

    def _remember(self, t: Any, key: Tuple[Any, ...], digest: int) -> None:
        """Most inputs are earlier outputs or parameters: digest each version once."""
        if len(self.known) > 50_000:
            self.known = {k: v for k, v in self.known.items() if v[0]() is not None}
        try:
            self.known[id(t)] = (weakref.ref(t), key, digest)
        except TypeError:
            pass

    def _digest(self, t: Any) -> Any:
        torch = self.torch
        try:
            if t.layout != torch.strided or t.is_quantized or t.device.type == "meta" or t.is_nested:
                return None
            v = t.detach()
            if v.is_complex():
                v = torch.view_as_real(v)
            if v.dtype == torch.bool:
                v = v.view(torch.uint8)
            v = v.reshape(-1)
            if not v.is_contiguous():
                v = v.contiguous()
            size = v.element_size()
            if size in (4, 8):
                v = v.view(torch.int32)
            else:
                v = v.view(torch.int16 if size == 2 else torch.uint8).to(torch.int32)
            if v.numel() == 0:
                return torch.zeros((), dtype=torch.int64, device=v.device)
            return torch.mul(v, self._weights(v.numel(), v.device)).sum(dtype=torch.int64)
        except Exception:  # a tensor we cannot read (a subclass, say) is left unknown
            return None

    def _weights(self, n: int, device: Any) -> Any:
        key = (n, str(device))
        w = self.weights.get(key)
        if w is None:
            torch = self.torch
            w = ((torch.arange(n, dtype=torch.int64, device=device) * _GOLDEN) % (1 << 31) | 1).to(torch.int32)
            if sum(k[0] for k in self.weights) + n <= _WEIGHT_CACHE_ELEMENTS:
                self.weights[key] = w
        return w

    # -- capture (third run) ---------------------------------------------------------

    def capture_here(self, func: Any) -> None:
        """Record where op number `capture` was called from, write it, end the process."""
        torch = self.torch
        skip = _skip_dirs()
        frames = _stack(sys._getframe(1))
        info: Dict[str, Any] = {"op": func._schema.name, "index": self.capture}
        user = [f for f in frames if is_user_file(f["file"], skip)]
        info["stack"] = frames[:40]
        info["user_frame"] = user[0] if user else None
        node = torch._C._current_autograd_node()
        if node is not None:
            info["node"] = node.name()
            metadata = {}
            try:
                metadata = node.metadata
            except Exception:
                pass
            module_id = metadata.get(_MODULE_KEY)
            if module_id is not None:
                info["module"] = self._module_entry(module_id)
            trace = metadata.get("traceback_")
            if trace:
                forward = _parse_formatted_stack(trace)
                user_forward = [f for f in forward if is_user_file(f["file"], skip)]
                info["forward_frame"] = user_forward[0] if user_forward else None
        elif self.stack:
            info["module"] = self._module_entry(self.stack[-1][1])
        if self.stack or "module" in info:
            root = self.stack[0][0] if self.stack else None
            info["root_variable"] = _variable_name(root, sys._getframe(1), skip) if root is not None else None
        info["steps"] = self.steps
        self.capture_info = info
        self.finish(complete=False)

    def _module_entry(self, module_id: int) -> Dict[str, str]:
        path, cls = self.values["modules"][module_id].split("\t", 1)
        return {"path": path, "class": cls}

    # -- output ----------------------------------------------------------------------

    def finish(self, complete: bool, exit_process: bool = True) -> None:
        if self.finished or os.getpid() != self.pid:
            return
        self.finished = True
        record = {
            "version": 1,
            "torch": str(getattr(self.torch, "__version__", "")),
            "complete": complete,
            "steps": self.steps,
            "skipped_before_training": self.skipped,
            "max_steps": self.max_steps,
            "boundaries": self.boundaries,
            "tables": self.values,
            "ops": self.ops,
            "capture": getattr(self, "capture_info", None),
        }
        tmp = self.out + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(record, f, separators=(",", ":"))
        os.replace(tmp, self.out)
        if exit_process:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(0)


def _cache_key(t: Any) -> Optional[Tuple[Any, ...]]:
    """What must be unchanged for a tensor's digest to still hold (None: do not cache)."""
    try:
        return (t._version, t.data_ptr(), tuple(t.shape), t.stride(), t.dtype)
    except Exception:  # inference tensors have no version counter
        return None


def _storage_key(t: Any) -> Optional[int]:
    try:
        return int(t.untyped_storage().data_ptr())
    except Exception:
        return None


def _tensor_meta(t: Any) -> str:
    return f"{str(t.dtype)[6:]}{list(t.shape)}"


_PLAIN = (int, float, bool, str, type(None))


def _leaf_repr(leaf: Any) -> str:
    if isinstance(leaf, _PLAIN):
        return repr(leaf)
    name = type(leaf).__name__
    if name in ("dtype", "device", "layout", "memory_format"):
        return str(leaf)
    return name  # generators, streams, opaque objects: their repr holds an address


def _stack(frame: Optional[FrameType]) -> List[Dict[str, Any]]:
    frames = []
    while frame is not None:
        code = frame.f_code
        frames.append({
            "file": code.co_filename,
            "line": frame.f_lineno,
            "function": code.co_name,
            "code": linecache.getline(code.co_filename, frame.f_lineno).strip(),
        })
        frame = frame.f_back
    return frames


def _parse_formatted_stack(lines: List[str]) -> List[Dict[str, Any]]:
    """Frames (innermost first) from `traceback.format_stack()` text."""
    import re

    frames = []
    for entry in lines:
        match = re.match(r'\s*File "(.*)", line (\d+), in (.*)', entry)
        if match:
            rest = entry.splitlines()[1:]
            frames.append({
                "file": match.group(1),
                "line": int(match.group(2)),
                "function": match.group(3).strip(),
                "code": rest[0].strip() if rest else "",
            })
    return list(reversed(frames))


def _variable_name(root: Any, frame: Optional[FrameType], skip: Tuple[str, ...]) -> Optional[str]:
    """The name the program gives its model (`net`, `model`), from the user's frames."""
    user_frames = []
    while frame is not None:
        if is_user_file(frame.f_code.co_filename, skip):
            user_frames.append(frame)
        frame = frame.f_back
    for f in reversed(user_frames):  # the outermost frame names it most plainly
        for scope in (f.f_locals, f.f_globals):
            for name, value in scope.items():
                if value is root and name != "self" and not name.startswith("_"):
                    return name
    return None


_recorder: Optional[Recorder] = None


def start() -> Optional[Recorder]:
    """Start recording if `REPROLINT_PROFILE_OUT` asks for it (once per process)."""
    global _recorder
    out = os.environ.get(ENV_OUT)
    if not out or _recorder is not None:
        return _recorder
    # Only the process profile started: children (DataLoader workers, subprocesses)
    # inherit the environment but are not recorded.
    os.environ.pop(ENV_OUT, None)
    steps = int(os.environ.get(ENV_STEPS, "2"))
    capture_text = os.environ.get(ENV_CAPTURE)
    capture = int(capture_text) if capture_text else None
    backward = os.environ.get(ENV_CAPTURE_BACKWARD) == "1"
    recorder = Recorder(out, steps, capture, backward)
    _recorder = recorder
    import atexit

    from reprolint.runtime._imports import when_imported

    when_imported("torch", recorder.attach)
    atexit.register(lambda: recorder.finish(complete=False, exit_process=False))
    return recorder
