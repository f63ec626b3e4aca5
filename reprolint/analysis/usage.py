"""Facts for the op, flag and order rules (RPL2xx, RPL3xx, RPL4xx), collected in the one pass.

:class:`UsageMixin` adds handlers to the fact collector of
:mod:`reprolint.analysis.facts`; it records :class:`Usage` events in the same ordered
event lists as seeds and draws (so the one execution walker,
:mod:`reprolint.analysis.execution`, gives them in execution order), plus the RNG
attributes of classes (RPL403). What each family knows about calls by qualified name
lives in :mod:`reprolint.analysis.calls`; what the op rules need to know about a tensor
op call (:class:`~reprolint.analysis.usage_events.OpCall` and its facts) in
:mod:`reprolint.analysis.op_usage`; the order of sets and listings (RPL401/RPL402
local facts) in :mod:`reprolint.analysis.order_facts` and the modules of its two mixins,
:mod:`reprolint.analysis.set_order` and :mod:`reprolint.analysis.listing_order`.

The events themselves, one class per kind of fact with named fields (:class:`FlagSet`,
:class:`OpCall`, :class:`LoaderBuilt`...), are in :mod:`reprolint.analysis.usage_events`.
"""

from __future__ import annotations

import functools
from typing import Any, Optional, Union

import libcst as cst

from reprolint.analysis import calls
from reprolint.analysis.cst_helpers import literal as _literal
from reprolint.analysis.cst_helpers import (
    children, cuda_literal, descendants, find_argument, is_docstring, is_future_import, mentions_of,
    node_functions, self_attr, strings_in, target_names,
)
from reprolint.analysis.calls import frameworks, keras
from reprolint.analysis.calls.loaders import collate_targets
from reprolint.analysis.listing_order import mark_use, progress_wrapped, sorting_call
from reprolint.analysis.op_usage import OpUsageFacts, moved_from
from reprolint.analysis.order_facts import UNORDERED, OrderFacts, UsageScope
from reprolint.analysis.usage_events import (
    CheckpointLoad,
    CudaWork,
    CudnnLayer,
    DistributedWrapper,
    EnvSet,
    FlagSet,
    HeadOnlyOptimizer,
    KerasFit,
    LoaderBuilt,
    ModuleStart,
    SetEpochCall,
    SetOrderTaken,
    TfSetting,
    TimedCode,
    TrainStep,
    Usage,
)
from reprolint.analysis.values import UNKNOWN, OptionRef

__all__ = ["FLAG_NAMES", "UNKNOWN", "OptionRef", "Usage", "UsageMixin"]

FLAG_NAMES = (
    "torch.deterministic",  # torch.use_deterministic_algorithms / set_deterministic
    "cudnn.deterministic",
    "cudnn.benchmark",
    "cudnn.enabled",  # `torch.backends.cudnn.enabled = False`: torch's own kernels, not cuDNN's
    "tf.op-determinism",
    "hf.full-determinism",  # transformers.enable_full_determinism
)


# ----------------------------------------------------------------------------- vocab

_CUDA_CALLS = frozenset({
    "torch.cuda.set_device", "torch.cuda.device", "torch.cuda.synchronize",
    "torch.cuda.empty_cache", "torch.cuda.Stream", "torch.cuda.Event", "torch.cuda.CUDAGraph",
    "torch.cuda.graph", "torch.cuda.amp.GradScaler", "torch.cuda.amp.autocast",
    "torch.cuda.max_memory_allocated", "torch.cuda.memory_allocated",
    "torch.cuda.reset_peak_memory_stats",
})
_DDP = frozenset({
    "torch.nn.parallel.DistributedDataParallel", "torch.nn.DataParallel",
    "torch.nn.parallel.DataParallel",
})
_FSDP = frozenset({
    "torch.distributed.fsdp.FullyShardedDataParallel",
    "torch.distributed.fsdp.fully_sharded_data_parallel.FullyShardedDataParallel",
})
_INIT_PG = frozenset({"torch.distributed.init_process_group"})
# Methods between an op and `.numpy()` that keep its result's grad and device
# (`.cpu()` moves it: then only "no grad" is known).
_NUMPY_PASSTHROUGH = frozenset({
    "squeeze", "unsqueeze", "flatten", "view", "reshape", "permute", "transpose", "contiguous", "float",
    "double", "half", "long", "int", "clamp", "cpu",
})
_CUDNN_LAYERS = frozenset(
    [f"torch.nn.{n}" for n in (
        "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
        "LSTM", "GRU", "RNN",
    )]
    + [f"torch.nn.functional.{n}" for n in (
        "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
    )]
)
_CUDNN_PREFIXES = ("torchvision.models.", "timm.create_model", "segmentation_models_pytorch.")
_TRAIN_CALLS = frozenset({"torch.autograd.grad", "torch.autograd.backward"})
# `torch.optim` modules that build no optimizer: schedulers take one, averagers copy weights
_NOT_OPTIMIZERS = ("torch.optim.lr_scheduler.", "torch.optim.swa_utils.")
_INPUT_GRADS = frozenset({"torch.autograd.grad"})
# Calls that time code (benchmarks); `torch.cuda.Event(enable_timing=True)` too.
_TIMING_CALLS = frozenset({
    "timeit.timeit", "timeit.repeat", "timeit.Timer", "torch.utils.benchmark.Timer",
    "torch.utils.benchmark.utils.timer.Timer", "triton.testing.do_bench",
})
# A TF1 ``Session`` runs whatever graph it is given (a saved policy, a metric's frozen
# graph): it is no training step; TF1 training builds an optimizer's ``minimize``.
_TF_TRAIN_CALLS = frozenset({
    "tensorflow.GradientTape",
    "tensorflow.compat.v1.train.AdamOptimizer", "tensorflow.compat.v1.train.GradientDescentOptimizer",
})
_TF_SETTING_CALLS = ("map", "interleave", "batch")


@functools.lru_cache(maxsize=None)
def _some_values() -> tuple[type, ...]:
    """Expressions whose value is never None (UsageMixin.u_some_value); made on first use,
    so that importing this module does not load libcst (reprolint/_lazy.py)."""
    return (
        cst.List, cst.Tuple, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp, cst.GeneratorExp,
        cst.Lambda, cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString,
    )


# torchvision's wrapper of a function into a sample transform
_SAMPLE_TRANSFORMS = frozenset({"torchvision.transforms.Lambda", "torchvision.transforms.v2.Lambda"})
# tf.data methods that run a function on each element in the input pipeline (on the CPU)
_PIPELINE_METHODS = frozenset({"map", "flat_map", "filter", "interleave", "parallel_interleave"})


# Calls that load trained weights into a torch model (besides `load_state_dict`).
_CHECKPOINT_LOADS = frozenset({
    "torch.load", "safetensors.torch.load_file",
    "timm.models.load_checkpoint", "timm.models.helpers.load_checkpoint", "timm.models._helpers.load_checkpoint",
})
_PICKLE_LOADS = frozenset({"pickle.load", "pickle.loads"})
# Calls that load a trained TensorFlow/Keras model whole (besides `saver.restore(sess, path)`
# and `model.load_weights(path)`).
_TF_LOADS = frozenset({
    "tensorflow.keras.models.load_model", "keras.models.load_model", "keras.saving.load_model",
    "tensorflow.saved_model.load", "tensorflow.saved_model.loader.load",
    "tensorflow.compat.v1.saved_model.loader.load", "tensorflow.compat.v1.saved_model.load",
})


def _unpickles(node: cst.Call) -> bool:
    """``SomeUnpickler(f).load()``: a ``pickle.Unpickler`` (or a subclass named like one)."""
    func = node.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "load" and isinstance(func.value, cst.Call)):
        return False
    built = func.value.func
    name = built.attr.value if isinstance(built, cst.Attribute) else built.value if isinstance(built, cst.Name) else ""
    return name.endswith("Unpickler")


def _makes_set(value: cst.BaseExpression) -> bool:
    """``set(...)``/``frozenset(...)`` or a set display: no order of what went in."""
    return isinstance(value, (cst.Set, cst.SetComp)) or (
        isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("set", "frozenset")
    )


class UsageMixin(OpUsageFacts, OrderFacts):
    """Handlers and hooks of the fact collector for the RPL2xx-RPL4xx facts.

    The collector calls :meth:`usage_call`, :meth:`usage_assign` and :meth:`usage_for`
    from its own handlers, and :meth:`usage_finish` once after the walk. Every node it
    reports is given a span through ``self.span`` (resolved after the walk).
    """

    # Provided by the collector.
    facts: Any
    scope: Any
    scopes: list[Any]
    uses: set[str]
    aliases: dict[str, str]

    # ------------------------------------------------------------------ state
    def _u_init(self) -> None:
        self._u_layer_targets: dict[int, tuple[str, str]] = {}  # layer call -> (class, self attribute)
        self._u_unordered: set[int] = set()  # nodes whose order nobody uses
        self._u_positioned: set[int] = set()  # nodes whose elements are picked by position (RPL402)
        self._u_sampled: set[int] = set()  # `self.files` of `self.files[index]` in a `__getitem__` (RPL402)
        self._u_handed_on: set[int] = set()  # call arguments: nodes handed on whole (RPL402)
        self._u_node_functions: Optional[dict[int, str]] = None  # cst_helpers.node_functions, when first needed
        # function qualname -> (its body, the parameters a loop of it iterates over)
        self._u_loop_params: dict[str, tuple[Any, set[str]]] = {}
        # a project call's argument -> (its call target, the parameter's position or name)
        self._u_handed_to: dict[int, tuple[str, Union[int, str]]] = {}
        # listing call -> where its "passed" uses hand it (None: not to a project function)
        self._u_passes: dict[int, list[Optional[tuple[str, Union[int, str]]]]] = {}
        self._u_claimed: set[int] = set()  # listing/set nodes a consumer already judged
        self._u_walk_parts: dict[int, cst.Subscript] = {}  # walk call -> `next(os.walk(d))[i]`
        self._u_store: set[int] = set()  # Name nodes that are assignment targets
        self._u_in_loop: set[int] = set()  # set_epoch and backward calls inside a loop
        self._u_inner_loops: set[int] = set()  # loops inside a loop body searched for them
        self._u_training_loops: set[int] = set()  # loops whose body calls `x.backward()`
        self._u_scopes: dict[int, UsageScope] = {}
        self._u_class_attrs: dict[str, set[str]] = {}  # class -> attrs bound to an RNG instance
        self._u_class_draws: dict[str, set[str]] = {}  # class -> self.<attr>.<draw>() attrs
        self._u_attr_listings: dict[tuple[str, str], list[Any]] = {}
        self._u_calls: dict[tuple[int, str], str] = {}  # (scope, name) -> project call target
        # (scope, name) of names whose last binding is a value that is never None (a
        # container, a literal, what a library call returns): condition_facts' SOME_VALUE
        self._u_some: set[tuple[int, str]] = set()
        self._u_bound_qn: dict[tuple[int, str], str] = {}  # (scope, name) -> qualified call it holds
        self._u_buffers: dict[str, set[str]] = {}  # class -> attrs registered as buffers
        self._u_plain: dict[str, frozenset[str]] = {}  # class -> plain tensor attrs (OpUsageFacts.u_plain_tensors)
        self._u_buffer_aliases: set[tuple[int, str]] = set()  # (scope, local) that registers one
        self._u_squeezed: dict[int, Any] = {}  # gather call -> the dim its result is squeezed on
        # op calls whose result goes straight to `.numpy()` or `.detach()` -> whether it is
        # known to be a CPU tensor (`.numpy()` with no `.cpu()` between)
        self._u_to_numpy: dict[int, bool] = {}
        self._u_compiled: set[str] = set()  # receivers of `.compile(...)` (Keras models)
        self._u_rank_offsets: dict[str, str] = {}  # `x += y` seen: x's text -> y's text
        # (scope, name) -> what the source shows of the tensor bound there (tensor_facts)
        self._u_tensor_kinds: dict[tuple[int, str], frozenset[str]] = {}
        # (scope or class, name or self attribute) -> the loss module it holds: its class
        # and the constructor's literal arguments (``reduction="none"``)
        self._u_loss_modules: dict[tuple[Any, str], tuple[str, tuple[Any, ...], tuple[tuple[str, Any], ...]]] = {}
        self._u_params: dict[str, set[str]] = {}  # class -> attrs bound to nn.Parameter(...)
        self._u_int_attrs: dict[str, set[str]] = {}  # class -> attrs bound to a Python int
        self._u_written: set[int] = set()  # subscripts assigned to (t[i] = v, t[i] += v)
        self._u_per_sample: set[int] = set()  # calls in a lambda a torchvision `transforms.Lambda` wraps
        # call/subscript inside an assigned value -> old kinds of the names it rebinds
        self._u_shadow: dict[int, dict[str, frozenset[str]]] = {}
        self._u_at: int = 0  # the op node whose facts are being read
        self._u_assumed: set[str] = set()  # parameters the last text kind read came through

    def u_branches(self) -> tuple[int, ...]:
        """The branches the code being read sits in, as ids of their tests."""
        return tuple(id(test) for _, _, test in self.conds)  # type: ignore[attr-defined]

    def _u_state(self, scope: Any = None) -> UsageScope:
        scope = scope if scope is not None else self.scope
        state = self._u_scopes.get(id(scope))
        if state is None:
            state = self._u_scopes[id(scope)] = UsageScope()
            state_owner = getattr(self, "_u_owners", None)
            if state_owner is None:
                self._u_owners = state_owner = []
            state_owner.append(scope)  # keep the scope alive so ids stay unique
        return state

    def _u_states(self) -> list[UsageScope]:
        """The current scope's state and the module's (names visible here)."""
        states = [self._u_state()]
        if self.scope is not self.scopes[0]:
            states.append(self._u_state(self.scopes[0]))
        return states

    def _u_emit(self, kind: type[Usage], name: str, node: cst.CSTNode, **fields: Any) -> None:
        """Record a ``kind`` event at ``node`` (``fields``: the ones of its class)."""
        self.emit(kind(name, self.span(node), self._u_text(node), self.current_conds(), **fields))  # type: ignore[attr-defined]

    def _u_text(self, node: cst.CSTNode) -> str:
        if isinstance(node, cst.Call):
            return self.text(node.func)  # type: ignore[attr-defined]
        text = self.text(node)  # type: ignore[attr-defined]
        return text if len(text) < 80 else text[:77] + "..."

    def _u_src(self, node: cst.CSTNode) -> str:
        text = " ".join(self.text(node).split())  # type: ignore[attr-defined]
        return text if len(text) <= 60 else text[:57] + "..."

    def _u_finding(self, code: str, node: cst.CSTNode, **data: Any) -> None:
        from reprolint.analysis.facts import LocalFinding

        if code in ("RPL401", "RPL402"):
            # the function that holds it: a helper nobody calls runs for no program (site_runs)
            if self._u_node_functions is None:
                self._u_node_functions = node_functions(self.module)  # type: ignore[attr-defined]
            data["in_function"] = self._u_node_functions.get(id(node))
        self.facts.findings.append(LocalFinding(code, self.span(node), data))  # type: ignore[attr-defined]
        if code == "RPL401":
            # where it runs, in execution order: RPL307 asks whether a program reaches it
            self._u_emit(SetOrderTaken, "", node, needs=tuple(data.get("needs", ())))

    # ------------------------------------------------------------------ module
    def visit_Module(self, node: cst.Module) -> None:
        self._u_init()
        self._u_module = node
        self._u_taped: Optional[set[int]] = None  # calls inside `with tf.GradientTape()` (lazy)
        body = list(node.body)
        for stmt in body:
            if is_docstring(stmt) or is_future_import(stmt):
                continue
            self._u_emit(ModuleStart, "", stmt)
            break

    # ------------------------------------------------------------------ calls
    def usage_call(self, node: cst.Call, qn: Optional[str]) -> None:
        """Hook from ``visit_Call``: runs for every call, before the RNG analysis."""
        from reprolint.analysis.facts import call_argument, dunder_member

        func = node.func
        method = func.attr.value if isinstance(func, cst.Attribute) else None
        kwargs = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        torch_module = "torch" in self.uses or "lightning" in self.uses or "pytorch_lightning" in self.uses

        # --- order-insensitive consumers mark their argument first (pre-order walk)
        name = qn or (func.value if isinstance(func, cst.Name) and not self.is_local(func.value) else None)  # type: ignore[attr-defined]
        if name in UNORDERED and node.args:
            self._u_unordered.add(id(node.args[0].value))
        if method == "sort" and isinstance(func.value, cst.Name):  # type: ignore[union-attr]
            self._u_sorted_in_place(func.value.value)  # type: ignore[union-attr]
        if method == "sort" and self_attr(func.value) is not None:  # type: ignore[union-attr]
            key = (self.current_class() or "", self_attr(func.value))  # type: ignore[attr-defined,union-attr]
            if key in self._u_attr_listings:
                self._u_attr_listings[key][3] = True

        # --- what the op rules need to know about a call nested in this one
        if (method == "register_buffer" and isinstance(func.value, cst.Name) and func.value.value == "self") or (  # type: ignore[union-attr]
            type(func) is cst.Name and (id(self.scope), func.value) in self._u_buffer_aliases  # type: ignore[attr-defined]
        ):
            buffer = _literal(node.args[0].value) if node.args else None
            if isinstance(buffer, str) and self.current_class() is not None:  # type: ignore[attr-defined]
                self._u_buffers.setdefault(self.current_class(), set()).add(buffer)  # type: ignore[attr-defined]
        if method in ("numpy", "detach") and not node.args:
            # `.numpy()` raises for a tensor that requires grad (and for a CUDA one): the
            # op whose result it takes, through indexing and shape methods, took no
            # gradient (and ran on the CPU unless `.cpu()` moved it). An op whose result
            # is detached at once (`F.interpolate(w, ...).detach()`) passes no gradient
            # back either (where it ran is not known then).
            inner, on_cpu = func.value, method == "numpy"  # type: ignore[union-attr]
            while True:
                if type(inner) is cst.Subscript:
                    inner = inner.value
                elif type(inner) is cst.Call and type(inner.func) is cst.Attribute \
                        and inner.func.attr.value in _NUMPY_PASSTHROUGH:
                    on_cpu = on_cpu and inner.func.attr.value != "cpu"
                    inner = inner.func.value
                else:
                    break
            if type(inner) is cst.Call:
                self._u_to_numpy[id(inner)] = on_cpu
        if method == "squeeze" and isinstance(func.value, cst.Call):  # type: ignore[union-attr]
            inner = func.value  # type: ignore[union-attr]
            if isinstance(inner.func, cst.Attribute) and inner.func.attr.value == "gather":
                self._u_squeezed[id(inner)] = _literal(node.args[0].value) if node.args else None

        # --- RPL402 listings and RPL401 set order
        self._u_message_sink(node, qn, method)
        self._u_listing_call(node, qn, method)
        self._u_set_order_call(node, name, method)

        # --- timing: what a benchmark measures (the program role, analysis/program.py)
        if qn in _TIMING_CALLS or (qn == "torch.cuda.Event" and _literal(kwargs.get("enable_timing")) is True):
            self._u_emit(TimedCode, qn, node)

        # --- CUDA, cuDNN, training
        if torch_module:
            if method == "cuda":
                self._u_emit(CudaWork, "`.cuda()`", node)
            elif method == "to" and any(cuda_literal(a.value) for a in node.args):
                self._u_emit(CudaWork, "`.to(\"cuda\")`", node)
            elif qn == "torch.device" and node.args and cuda_literal(node.args[0].value):
                self._u_emit(CudaWork, "`torch.device(\"cuda\")`", node)
            elif qn in _CUDA_CALLS:
                self._u_emit(CudaWork, f"`{self.text(func)}`", node)  # type: ignore[attr-defined]
            elif any(cuda_literal(kwargs.get(k)) for k in ("device", "device_type")):
                self._u_emit(CudaWork, "`device=\"cuda\"`", node)
            elif qn in _INIT_PG:
                backend = call_argument(node, "backend", 0)
                if backend is not None and _literal(backend.value) == "nccl":
                    self._u_emit(CudaWork, "the NCCL backend", node)
            elif qn in _DDP and "device_ids" in kwargs and _literal(kwargs["device_ids"]) is not None:
                self._u_emit(CudaWork, f"`{self.text(func)}(device_ids=...)`", node)  # type: ignore[attr-defined]
            # a model picked by name (`models.__dict__[args.arch]()`) builds convolutions
            # too; the registry's dunders (`models.__dict__.keys()`) build nothing
            built = qn if qn is not None else self.dynamic_member(func)  # type: ignore[attr-defined]
            if qn in _CUDNN_LAYERS or (
                built is not None and built.startswith(_CUDNN_PREFIXES) and not dunder_member(built)
            ):
                self._u_emit(CudnnLayer, built, node)
            # `opt.zero_grad()` belongs to a training step even when the backward pass sits
            # in a class built by name (`construct_class_by_name("training.loss.Loss")`).
            if method in ("backward", "zero_grad") or qn in _TRAIN_CALLS or (qn or "").startswith("torch.optim."):
                # what the program role needs: an optimizer built (parameters are
                # updated), `autograd.grad` (gradients of inputs, as classifier guidance
                # takes them, update nothing), written inside a loop
                # (a learning-rate scheduler or weight averager of `torch.optim` builds none)
                self._u_emit(
                    TrainStep, "torch", node, builds_optimizer=(qn or "").startswith("torch.optim.")
                    and not (qn or "").startswith(_NOT_OPTIMIZERS),
                    input_gradients=qn in _INPUT_GRADS, in_loop=id(node) in self._u_in_loop,
                )
            if method in ("load_state_dict", "from_pretrained") or qn in _CHECKPOINT_LOADS:
                self._u_emit(CheckpointLoad, "torch", node)
            head_only = self._u_state().head_only
            if method == "requires_grad_":
                head_only.note_call(node, self.u_branches())  # `backbone.requires_grad_(False)`
            elif head_only.frozen and ((qn or "").startswith("torch.optim.") or self.call_target(func) is not None) \
                    and head_only.trains_head_only(node, self.u_branches()):  # type: ignore[attr-defined]
                self._u_emit(HeadOnlyOptimizer, qn or self.text(func), node)  # type: ignore[attr-defined]
        if ("tensorflow" in self.uses or "keras" in self.uses) and (
            (method == "restore" and len(node.args) >= 2) or method == "load_weights" or qn in _TF_LOADS
        ):
            # `saver.restore(sess, path)`, `model.load_weights(path)`, `load_model(path)`:
            # trained weights replace the initial ones (read by the rules of draws only,
            # not by the program's role: see Program.restores_tensorflow)
            self._u_emit(CheckpointLoad, "tensorflow", node)
        if qn in _PICKLE_LOADS or _unpickles(node):
            # pickled networks (StyleGAN's `legacy.load_network_pkl`): the unpickled
            # modules carry their trained weights
            self._u_emit(CheckpointLoad, "torch", node)
        if qn in _DDP or (qn in _FSDP and _literal(kwargs.get("sync_module_states")) is True):
            self._u_emit(DistributedWrapper, qn, node)
        elif qn == "torch.distributed.broadcast" and self._u_broadcasts_parameters(node):
            # `for param in model.parameters(): dist.broadcast(param, src=0)`: what DDP
            # does when it wraps a model (StyleGAN's training loop)
            self._u_emit(DistributedWrapper, qn, node)
        if method == "prepare" and "accelerate" in self.uses:
            self._u_emit(DistributedWrapper, "accelerate", node)
        if "collate_fn" in kwargs:  # a DataLoader, or a class or helper that makes one
            self.facts.collate_targets.extend(collate_targets(self, kwargs["collate_fn"]))
        if qn in _SAMPLE_TRANSFORMS and node.args:
            # `transforms.Lambda(lambda x: F.pad(x.unsqueeze(0), ..., mode="reflect"))`: run on
            # each CPU sample where the dataset makes it, with no autograd graph
            given = node.args[0].value
            if type(given) is cst.Lambda:
                self._u_per_sample.update(id(c) for c in descendants(given) if type(c) is cst.Call)
            else:
                self.facts.collate_targets.extend(collate_targets(self, given))
        if method in _PIPELINE_METHODS and "tensorflow" in self.uses and (node.args or "map_func" in kwargs):
            # `ds.map(preprocess)`, `ds.map(lambda x: preprocess(x, size))`: tf.data runs it
            given = kwargs.get("map_func", kwargs.get("predicate", node.args[0].value if node.args else None))
            if type(given) is cst.Lambda:
                # `ds.map(lambda x, y: (tf.image.resize(x, size), y))`: its calls run in the
                # pipeline too, on CPU tensors no gradient flows through
                inner = [c for c in descendants(given.body) if type(c) is cst.Call]  # type: ignore[attr-defined]
                self._u_per_sample.update(id(c) for c in inner)
                for call in inner:
                    self.facts.pipeline_targets.extend(collate_targets(self, call.func))
            else:
                self.facts.pipeline_targets.extend(collate_targets(self, given))

        # --- what each family knows by qualified name (flags, frameworks, environment,
        # devices, order): reprolint.analysis.calls
        if qn is not None:
            handlers = calls.handlers_for(qn)
            if handlers:
                site = calls.CallSite(node, qn, method, kwargs)
                for handler in handlers:
                    handler(self, site)

        # --- TF / JAX by method or prefix
        if "tensorflow" in self.uses or "keras" in self.uses:
            if method == "compile" and isinstance(node.func, cst.Attribute):
                self._u_compiled.add(self._u_text(node.func.value))
            # ``state.apply_gradients(...)`` in a JAX module is Flax's TrainState
            jax_module = bool({"jax", "flax", "optax"} & self.uses)
            if qn in _TF_TRAIN_CALLS or (method in ("apply_gradients", "minimize") and not jax_module):
                self._u_emit(TrainStep, "tf", node)
            receiver = node.func.value if isinstance(node.func, cst.Attribute) else None
            if method == "fit" and type(receiver) is cst.Name and keras.forest_model(self._u_bound_class(receiver.value)):
                self._u_emit(TrainStep, "tfdf", node)  # trained by Yggdrasil, not TF kernels or TF seeds
            elif method == "fit" and type(receiver) is cst.Name and keras.estimator_model(self._u_bound_class(receiver.value)):
                self._u_emit(TrainStep, "tf", node)  # an Estimator's graph: TF's seeds, not Keras's fit
            elif method in ("fit", "fit_generator") and self._u_keras_fit(node, kwargs):
                self._u_emit(TrainStep, "tf", node)
                self._u_emit(KerasFit, "fit", node)
            elif method == "train_on_batch" and self._u_keras_fit(node, {}):
                # one gradient step on the batch it is given (GAN loops): no shuffle of its own
                self._u_emit(TrainStep, "tf", node)
            if method in _TF_SETTING_CALLS and "deterministic" in kwargs:
                self._u_emit(TfSetting, f"tensorflow.data.Dataset.{method}", node,
                             kwargs=(("deterministic", _literal(kwargs["deterministic"])),))
        if qn is not None and (qn.startswith(("tensorflow.", "keras."))):
            from reprolint.analysis.determinism import tf_setting_names

            if qn in tf_setting_names():
                self._u_emit(TfSetting, qn, node)
        if "jax" in self.uses and qn is not None and frameworks.jax_training_step(qn):
            self._u_emit(TrainStep, "jax", node)
        if method == "set_epoch":
            arg = node.args[0].value if node.args else None
            varying = arg is not None and _literal(arg) == UNKNOWN
            in_function = any(scope.kind == "function" for scope in self.scopes)
            self._u_emit(SetEpochCall, "set_epoch", node, varying_in_loop=id(node) in self._u_in_loop and varying,
                         varying_in_function=varying and in_function)

        # --- ops from the catalogs
        if qn is None and torch_module and self._u_loss_modules:
            self._u_loss_call(node)
        if qn is not None:
            self._u_op(node, qn)
        elif method is not None and torch_module and not self._u_is_module(func.value):  # type: ignore[union-attr]
            from reprolint.analysis.determinism import binds_tensor_method, tensor_method_names

            if method in tensor_method_names() and binds_tensor_method(method, node) \
                    and not self._u_not_a_tensor(func.value):  # type: ignore[union-attr]
                self._u_op(node, f"Tensor.{method}")

        # --- RNG instances held by classes (RPL403)
        cls = self.current_class()  # type: ignore[attr-defined]
        if cls is not None and isinstance(func, cst.Attribute):
            attr = self_attr(func.value)
            if attr is not None:
                self._u_class_draws.setdefault(cls, set()).add(attr)

    def _u_is_module(self, receiver: cst.BaseExpression) -> bool:
        from reprolint.analysis.facts import attr_chain

        chain = attr_chain(receiver)
        return chain is not None and chain[0] in self.aliases and not self.is_local(chain[0])  # type: ignore[attr-defined]

    def _u_flag(self, name: str, node: cst.CSTNode, value_node: Optional[cst.BaseExpression],
                warn_only: bool = False) -> None:

        value: Any = UNKNOWN
        ref = None
        default_of = None
        if value_node is not None:
            value = _literal(value_node)
            if value == UNKNOWN and isinstance(value_node, cst.Name):
                # A parameter (`cudnn.benchmark = cudnn_benchmark` in
                # `def training_loop(..., cudnn_benchmark=True)`) or a module constant:
                # its default is what runs when callers leave it alone.
                tree = self.value_tree(value_node)  # type: ignore[attr-defined]
                if tree[0] == "const":
                    value = tree[1]
                    default_of = value_node.value  # for the message
            if value == UNKNOWN and isinstance(value_node, cst.Attribute):
                ref = OptionRef(value_node.attr.value)
            elif value == UNKNOWN and isinstance(value_node, cst.UnaryOperation) and isinstance(
                value_node.operator, cst.Not
            ) and isinstance(value_node.expression, cst.Attribute):
                ref = OptionRef(value_node.expression.attr.value, negated=True)
        self._u_emit(FlagSet, name, node, value=value, ref=ref, warn_only=warn_only, default_of=default_of)

    def _u_env(self, node: cst.CSTNode, key: Optional[cst.BaseExpression], value: cst.BaseExpression,
               name: Optional[str] = None) -> None:

        if name is None:
            name = _literal(key) if key is not None else UNKNOWN
        if not isinstance(name, str) or name == UNKNOWN:
            return
        literal = _literal(value)
        text = literal if isinstance(literal, str) and literal != UNKNOWN else None
        if text is None and name == "XLA_FLAGS":
            text = strings_in(value)
        self._u_emit(EnvSet, name, node, value=text)

    def _u_loader(self, node: cst.Call, qualname: str, kwargs: dict[str, cst.BaseExpression]) -> None:

        dataset = node.args[0].value if node.args and node.args[0].keyword is None else kwargs.get("dataset")
        target = ""
        if isinstance(dataset, cst.Call):
            target = self.call_target(dataset.func) or ""  # type: ignore[attr-defined]
        elif isinstance(dataset, cst.Name):
            target = self._u_bound_call(dataset.value)
        workers = kwargs.get("num_workers")
        value: Any = 0
        ref = None
        if workers is not None:
            value = _literal(workers)
            if value == UNKNOWN and isinstance(workers, cst.Attribute):
                ref = OptionRef(workers.attr.value)
            elif value == UNKNOWN and isinstance(workers, cst.Name):
                for scope in reversed(self.scopes):
                    if scope.kind == "function" and workers.value in scope.params:
                        value = scope.params[workers.value]
                        break
        given = kwargs.get("worker_init_fn")
        self._u_emit(LoaderBuilt, qualname, node, dataset=target, num_workers=value, workers_ref=ref,
                     worker_init_fn=given is not None and _literal(given) is not None)

    def _u_bound_call(self, name: str) -> str:
        """The project call last assigned to ``name`` here or at module level ("" if none)."""
        for scope in (self.scope, self.scopes[0]):
            target = self._u_calls.get((id(scope), name))
            if target:
                return target
        return ""

    def u_some_value(self, value: cst.BaseExpression) -> bool:
        """Whether ``value`` is never None: a literal, a container or comprehension, a
        lambda, what a library call returns (``np.zeros(n)``), or a name whose last
        binding here (or at module level) is one."""
        kind = type(value)
        if kind in _some_values():
            return True
        if kind is cst.Call:
            return self.qualify(value.func) is not None and self.call_target(value.func) is None  # type: ignore[attr-defined]
        if kind is cst.Name:
            return any((id(scope), value.value) in self._u_some for scope in (self.scope, self.scopes[0]))  # type: ignore[attr-defined]
        return False

    def _u_bound_class(self, name: str) -> str:
        """The qualified class whose instance ``name`` holds here or at module level."""
        return self._u_bound_qn.get((id(self.scope), name)) or self._u_bound_qn.get((id(self.scopes[0]), name), "")

    def _u_keras_fit(self, node: cst.Call, kwargs: dict[str, Any]) -> bool:
        """Whether ``x.fit(...)`` in a module that uses TF/Keras is Keras's: in a module
        that also uses another library with a ``fit`` (scikit-learn, statsmodels, the
        gradient-boosting libraries...), only with a Keras-only keyword (``epochs``,
        ``steps_per_epoch``, ``validation_split``...) or on a receiver the module
        ``compile``s (Keras models are compiled before ``fit``). An ImageDataGenerator's
        ``fit(x)`` computes its featurewise statistics: no training."""
        receiver = node.func.value if isinstance(node.func, cst.Attribute) else None
        if receiver is not None and keras.image_generator(self, receiver) is not None:
            return False
        if not (self.uses & keras.OTHER_FIT_LIBRARIES):
            return True
        if kwargs.keys() & keras.KERAS_FIT_KEYWORDS:
            return True
        receiver = node.func.value if isinstance(node.func, cst.Attribute) else None
        return receiver is not None and self._u_text(receiver) in self._u_compiled

    # ------------------------------------------------------------------ assignments
    def usage_parameters(self, params: cst.Parameters) -> None:
        """Hook from ``visit_FunctionDef``, once the function's scope is entered."""
        from reprolint.analysis.calls import pandas

        pandas.note_parameters(self, params)
        self._u_bind_parameters(params)

    def _u_broadcasts_parameters(self, node: cst.Call) -> bool:
        """``dist.broadcast(param, src=0)`` (any literal rank) where ``param`` is the variable of a loop of
        this body over parameters or buffers (``model.parameters()``,
        ``params_and_buffers(module)``, ``state_dict().values()``)."""
        first = node.args[0].value if node.args and node.args[0].keyword is None else None
        source = find_argument(node, "src", 1)
        rank = _literal(source.value) if source is not None else None
        if type(first) is not cst.Name or type(rank) is not int:
            return False  # every replica gets one rank's values: `src` a literal rank
        body = self.scope.body if self.scope.kind == "function" else self.module  # type: ignore[attr-defined]
        for loop in descendants(body):
            if type(loop) is cst.For and type(loop.target) is cst.Name and loop.target.value == first.value:
                text = self.text(loop.iter)  # type: ignore[attr-defined]
                if any(word in text for word in ("param", "buffer", "state_dict")):
                    return True
        return False

    def usage_with(self, node: cst.With) -> None:
        """Hook from ``visit_With``: ``as`` names hold what ``__enter__`` returns, of unknown value."""
        for item in node.items:
            if isinstance(item.asname, cst.AsName):
                for name_node in target_names(item.asname.name):
                    self._u_some.discard((id(self.scope), name_node.value))

    def usage_assign(self, targets: list[cst.BaseExpression], value: cst.BaseExpression) -> None:
        """Hook from ``visit_Assign``/``visit_AnnAssign`` (before the value is walked)."""

        for target in targets:
            for name_node in target_names(target):
                self._u_store.add(id(name_node))
        some = len(targets) == 1 and type(targets[0]) is cst.Name and self.u_some_value(value)
        for target in targets:
            for name_node in target_names(target):
                key = (id(self.scope), name_node.value)
                if some:
                    self._u_some.add(key)
                else:
                    self._u_some.discard(key)
        state = self._u_state()
        # torch.backends.cudnn.* = ..., os.environ[...] = ..., Options.deterministic = ...
        for target in targets:
            if isinstance(target, cst.Attribute):
                qn = self.qualify(target) or ""  # type: ignore[attr-defined]
                if qn in ("torch.backends.cudnn.deterministic", "torch.backends.cudnn.benchmark", "torch.backends.cudnn.enabled"):
                    self._u_flag(qn.replace("torch.backends.", ""), target, value)
                elif target.attr.value in ("deterministic", "experimental_deterministic") and (
                    "tensorflow" in self.uses or "keras" in self.uses
                ):
                    self._u_emit(TfSetting, f"tensorflow.data.Options.{target.attr.value}", target,
                                 value=_literal(value))
            elif isinstance(target, cst.Subscript) and (self.qualify(target.value) or "") == "os.environ":  # type: ignore[attr-defined]
                element = target.slice[0].slice if target.slice else None
                if isinstance(element, cst.Index):
                    self._u_env(target, element.value, value)
        if "torch" in self.uses and cuda_literal(value) and not isinstance(value, cst.Call):
            self._u_emit(CudaWork, f"`{self._u_text(value)}`", value)
        # RNG instances bound to self attributes (RPL403)
        cls = self.current_class()  # type: ignore[attr-defined]
        if cls is not None and self.scope.kind == "function" and len(targets) == 1:
            attr = self_attr(targets[0])
            built = moved_from(value)
            if attr is not None and type(built) is cst.Call:
                self._u_layer_targets[id(built)] = (cls, attr)  # `self.pool = nn.AvgPool2d(2).cuda()`
        # only generators made in __init__ are copied into the workers
        in_init = self.scope.kind == "function" and self.scope.name.endswith(".__init__.")
        if cls is not None and in_init and isinstance(value, cst.Call):
            qn = self.qualify(value.func) or ""  # type: ignore[attr-defined]
            if qn in self.catalog.instances or qn == "numpy.random.Generator":  # type: ignore[attr-defined]
                for target in targets:
                    attr = self_attr(target)
                    if attr is not None:
                        self._u_class_attrs.setdefault(cls, set()).add(attr)
        # names bound to project calls (a dataset instance for DataLoader), and to the
        # qualified call that made them (an ``Accelerator`` is no tensor)
        if isinstance(value, cst.Call):
            target_call = self.call_target(value.func) or ""  # type: ignore[attr-defined]
            made_by = self.qualify(value.func)  # type: ignore[attr-defined]
            for target in targets:
                if isinstance(target, cst.Name):
                    self._u_calls[(id(self.scope), target.value)] = target_call
                    if made_by is not None and made_by.rsplit(".", 1)[-1][:1].isupper():  # a class
                        self._u_bound_qn[(id(self.scope), target.value)] = made_by
                    else:
                        self._u_bound_qn.pop((id(self.scope), target.value), None)
        self._u_bind_tensor(targets, value)
        # --- string kinds
        names = [t.value for t in targets if isinstance(t, cst.Name)]
        state.head_only.note_assign(names, value)
        for target in targets:
            if isinstance(target, cst.Attribute):
                state.head_only.note_replaced(target, value)  # `model.fc = nn.Linear(n, 2)`
        kind = self._u_kind(value)
        needs = frozenset(self._u_assumed)
        fresh = self._u_fresh_constant(value)
        unique = self._u_unique_index(value)
        for name in names:
            if unique:
                state.unique_indices.add(name)
            else:
                state.unique_indices.discard(name)
        for name in names:
            if fresh:
                state.fresh_tensors.add(name)
            elif not self._u_torch_op_on(value, name):
                state.fresh_tensors.discard(name)
        json_value = isinstance(value, cst.Call) and (self.qualify(value.func) or "") in ("json.load", "json.loads")  # type: ignore[attr-defined]
        for name in names:
            for bucket in (state.str_names, state.str_iters, state.str_nested, state.str_sets, state.empty_sets, state.json_names):
                bucket.discard(name)
            if json_value:
                state.json_names.add(name)
            state.set_needs.pop(name, None)
            if kind in ("set", "iter", "iters", "str") and needs:
                state.set_needs[name] = needs  # text (a set of it...) where the callers pass text
            if kind == "set":
                state.str_sets.add(name)
            elif kind == "iter":
                state.str_iters.add(name)
            elif kind == "iters":
                state.str_nested.add(name)
            elif kind == "str":
                state.str_names.add(name)
            elif isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "set" and not value.args:
                state.empty_sets.add(name)
        # --- listings stored in a variable or attribute
        self.u_walk_unpack(targets, value, state)
        root = self._u_listing_root(value) or self.u_concatenated_listing(value)
        if root is not None and id(root[0]) not in self._u_unordered:
            self._u_claimed.add(id(root[0]))
            for target in targets:
                if isinstance(target, cst.Name):  # where it is stored, under what (u_order_used)
                    state.listings[target.value] = [root[0], root[1], False, False, (id(self.scope), self.current_conds())]  # type: ignore[attr-defined]
                elif self_attr(target) is not None and self.current_class() is not None:  # type: ignore[attr-defined]
                    key = (self.current_class() or "", self_attr(target))  # type: ignore[attr-defined]
                    self._u_attr_listings[key] = [root[0], root[1], False, False]
                    self._u_store.add(id(target))  # storing it is no use of its order
        else:
            self._u_derived_fill(names, value)
            derived = self._u_derived_listing(value)
            for name in names:
                if derived is not None:
                    source, source_state = derived
                    entry = source_state.listings[source]
                    if sorting_call(value):
                        entry[3] = True  # sorted before any use: ``files = sorted(files)``
                    # ``files = [f for f in files if ...]``: the new list keeps the order
                    state.listings[name] = [entry[0], entry[1], False, entry[3], (id(self.scope), self.current_conds())]  # type: ignore[attr-defined]
                elif name in state.listings and (not mentions_of(value, name) or _makes_set(value)):
                    # bound to something else, or to a set of its own entries (`gt_files =
                    # set(gt_files)`): no listing's order from here on
                    del state.listings[name]

    def _u_derived_fill(self, names: list[str], value: cst.BaseExpression) -> None:
        """``out = [(f, 1) for f in paths]`` or ``[... for f, l in zip(paths, labels)]`` of
        lists one listing loop filled (``state.appended``): the new list keeps their
        order, and sorting it (then or later) decides the order of all of them. Lists
        the same loop filled side by side stay paired in any order."""
        node = value.args[0].value if sorting_call(value) and value.args else value  # type: ignore[attr-defined]
        if type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "list" and node.args:
            node = node.args[0].value
        if type(node) not in (cst.ListComp, cst.GeneratorExp):
            return
        source = node.for_in.iter  # type: ignore[attr-defined]
        sources = [a.value for a in source.args] if type(source) is cst.Call and type(source.func) is cst.Name \
            and source.func.value == "zip" else [source]
        state = self._u_state()
        entries = [state.appended.get(s.value) if type(s) is cst.Name else None for s in sources]
        if not entries or None in entries or len({id(e[0]) for e in entries}) != 1:  # type: ignore[index]
            return
        group = entries[0]
        for source_node in sources:
            state.appended[source_node.value] = group  # type: ignore[attr-defined]
            self._u_claimed.add(id(source_node))  # deriving is not using the order
        for name in names:
            state.appended[name] = group
        if node is not value:
            group[3] = True  # type: ignore[index]  # `sorted([... for f in paths])`

    # ------------------------------------------------------------------ loops
    def usage_for(self, node: cst.For) -> None:
        """Hook from ``visit_For`` (before the body is walked)."""
        for name_node in target_names(node.target):
            self._u_store.add(id(name_node))
            self._u_some.discard((id(self.scope), name_node.value))  # each turn binds an entry: of unknown value
        state = self._u_state()
        state.head_only.note_loop(node, self.u_branches())  # `for p in model.parameters(): p.requires_grad = False`
        # set_epoch and backward passes inside the loop
        self._u_note_loop_hooks(node)
        self.u_bind_loop_targets(node)  # type: ignore[attr-defined]
        # loop variables over text
        kind = self._u_kind(node.iter)
        needs = self.u_needs()  # type: ignore[attr-defined]
        if isinstance(node.target, cst.Name) and not needs:
            if kind in ("iter", "set", "str"):
                state.str_names.add(node.target.value)
            elif kind == "iters":
                state.str_iters.add(node.target.value)
        # RPL401: for w in <set of str>
        if kind == "set" and id(node.iter) not in self._u_claimed and not self._u_order_free_loop(node):
            self._u_claimed.add(id(node.iter))
            self._u_finding("RPL401", node.iter, expression=self._u_src(node.iter), variant="for",
                            of=self.u_set_key(node.iter), **needs)  # type: ignore[attr-defined]
        # a loop over a function's parameter: may that function take a listing whole
        # without using its order (ListingOrderFacts.u_order_free_params)
        if type(node.iter) is cst.Name and self.scope.kind == "function" and node.iter.value in self.scope.params:  # type: ignore[attr-defined]
            self._u_loop_params.setdefault(self.scope.name[:-1], (self.scope.body, set()))[1].add(node.iter.value)  # type: ignore[attr-defined]
        # RPL402: for f in <listing>
        root = self._u_listing_root(node.iter)
        if root is not None and id(root[0]) not in self._u_unordered:
            self._u_claimed.add(id(root[0]))
            self._u_listing_loop(node, root)
        elif isinstance(over := progress_wrapped(node.iter, self.qualify), cst.Name) \
                and (over.value in state.listings or over.value in state.appended):  # type: ignore[attr-defined]
            # a name holding a listing, or a list a loop over one filled in its order
            self._u_claimed.add(id(over))
            self._u_listing_loop(node, (None, None), pending=over.value)
        else:
            self.u_discarded_map_loop(node)  # for _ in pool.imap(convert, files): pass  # type: ignore[attr-defined]
            self._u_counted_listing_loop(node)  # for i, f in enumerate(files)
            self._u_indexed_listing_loop(node)  # for i in range(len(files)): files[i]

    def _u_note_loop_hooks(self, loop: Union[cst.For, cst.While]) -> None:
        """The ``set_epoch`` and ``backward`` calls in a loop's body are in a loop; the
        loops around a ``x.backward()`` call take training steps (``_u_training_loops``).
        A loop inside the body of one already searched holds none that search did not
        find."""
        if not self.loop_hooks_possible or id(loop) in self._u_inner_loops:  # type: ignore[attr-defined]
            return
        stack: list[tuple[cst.CSTNode, tuple[int, ...]]] = [(loop.body, (id(loop),))]
        while stack:
            child, around = stack.pop()  # `around`: the loops the node is in
            kind = type(child)  # type tests, not isinstance: see cst_helpers.CONCRETE
            if kind is cst.Call:
                func = child.func  # type: ignore[attr-defined]
                name = func.attr.value if type(func) is cst.Attribute else (
                    func.value if type(func) is cst.Name else None
                )
                if name == "set_epoch" or name == "backward":
                    self._u_in_loop.add(id(child))
                if name == "backward" and type(func) is cst.Attribute:
                    self._u_training_loops.update(around)
            elif kind is cst.For or kind is cst.While:
                self._u_inner_loops.add(id(child))
                body = child.body  # type: ignore[attr-defined]
                stack.append((body, (*around, id(child))))  # its body is in it too
                stack.extend((part, around) for part in children(child) if part is not body)
                continue
            stack.extend((grandchild, around) for grandchild in children(child))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        """``args.seed += local_rank``: the name now carries the rank offset, so
        ``args.seed - local_rank`` is the same on every rank (see :meth:`u_rank_free`)."""
        if isinstance(node.target, cst.Subscript):
            self._u_written.add(id(node.target))  # t[i] += v writes, reads no gradient path
        if isinstance(node.operator, cst.AddAssign):
            self._u_rank_offsets[self.text(node.target)] = self.text(node.value)  # type: ignore[attr-defined]
            if isinstance(node.target, cst.Name):
                self._u_extend_listing(node.target, node.value)

    def _u_extend_listing(self, target: cst.Name, value: cst.BaseExpression) -> None:
        """``files += glob(p2)``: the name holds one listing made of both, in their
        order; extending it (or a list a listing loop filled, with anything) is no use of
        the order (what is done with ``files`` later is, and a later ``sorted(files)``
        puts all of it in order)."""
        state = self._u_state()
        root = self._u_listing_root(value)
        # (also a list a loop over a listing filled: `paths += [extra]` keeps its order)
        held = next((s for s in self._u_states() if target.value in s.listings or target.value in s.appended), None)
        if held is None and root is None:
            return
        self._u_store.add(id(target))
        if root is not None and id(root[0]) not in self._u_unordered:
            self._u_claimed.add(id(root[0]))
            if held is None:
                state.listings[target.value] = [root[0], root[1], False, False]

    def u_rank_free(self, seed: cst.BaseExpression) -> bool:
        """``X - r`` where ``X += r`` came earlier in this module: the rank cancels out."""
        return (
            isinstance(seed, cst.BinaryOperation) and isinstance(seed.operator, cst.Subtract)
            and self._u_rank_offsets.get(self.text(seed.left)) == self.text(seed.right)  # type: ignore[attr-defined]
        )

    def usage_loop(self, node: cst.While) -> None:
        """Hook from ``visit_While``: ``set_epoch`` and ``backward`` calls in its body are in a loop."""
        self._u_note_loop_hooks(node)

    # ------------------------------------------------------------------ end
    def usage_finish(self) -> None:
        """Report listings stored in variables whose order was used and never sorted."""
        for state in self._u_scopes.values():
            # a list and the copies made of it (`_u_derived_fill`) share one entry
            for call, description, use, sorted_, *_ in {id(e): e for e in state.appended.values()}.values():
                if use and not sorted_:
                    self._u_report_listing(call, description, use=use)
        # one listing held in several names (`files`, then `files = [f for f in files if
        # ...]`) is one finding, with its strongest use
        used: dict[int, list[Any]] = {}
        stored = [e for state in self._u_scopes.values() for e in state.listings.values()]
        for entry in stored:
            if entry[2] and not entry[3]:
                mark_use(used.setdefault(id(entry[0]), [entry[0], entry[1], False]), entry[2])
        for call, description, use in used.values():
            self._u_report_listing(call, description, use=use)
        # a listing kept in `self.<attr>`: besides what this class does with it (`use`,
        # "stored" when nothing here reads its order), code elsewhere may read the
        # attribute (`dataset.files`): the rule asks the project
        for (cls, attr), entry in self._u_attr_listings.items():
            if not entry[3] and id(entry[0]) not in used:
                self._u_report_listing(entry[0], entry[1], use=entry[2] or "stored", owner=cls, attr=attr)
        self.facts.order_free_params = self.u_order_free_params()
        rngs: dict[str, list[str]] = {}
        for cls, attrs in self._u_class_attrs.items():
            drawn = sorted(attrs & self._u_class_draws.get(cls, set()))
            if drawn:
                rngs[cls] = drawn
        self.facts.class_rngs = rngs
