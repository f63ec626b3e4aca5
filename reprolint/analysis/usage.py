"""Facts for the op, flag and order rules (RPL2xx, RPL3xx, RPL4xx), collected in the one pass.

:class:`UsageMixin` adds handlers to the fact collector of
:mod:`reprolint.analysis.facts`; it records :class:`Usage` events in the same ordered
event lists as seeds and draws (so the program model can replay them in execution
order, see :mod:`reprolint.analysis.determinism`), plus two module-level results:
RPL401/RPL402 local findings and the RNG attributes of classes (RPL403).

Kinds of :class:`Usage` (``name`` / ``value`` / ``flag`` meaning):

=============  =====================================================================
``entry``      the module's first statement (where program-level findings go)
``cuda``       a line that puts torch work on a CUDA device (``name``: what)
``gpu``        a TF/JAX line that selects a GPU (``name``: framework)
``cpu-only``   the program hides the GPU (``name``: ``tf``, ``jax`` or ``any``)
``cudnn``      evidence that cuDNN runs (conv/RNN/BatchNorm layers, vision models)
``flag``       a determinism flag: ``name`` in :data:`FLAG_NAMES`; ``value`` literal,
               ``ref`` an ``args.<ref>`` option; ``flag``: ``warn_only=True``
``env``        ``os.environ[name] = value`` and friends (``value`` None: unknown)
``op``         a call of a catalogued op (``name`` qualified; ``args``/``kwargs``
               literal values, :data:`UNKNOWN` otherwise; ``flag``: a ``*``/``**`` splat)
``tf-setting`` a TF construct from ``tf.toml``'s settings (``value`` for assignments)
``train``      a training step (``name``: ``torch``, ``tf``, ``jax``)
``lightning``  ``Trainer(...)`` of Lightning (``kwargs``: deterministic, benchmark, ...)
``hf-args``    ``TrainingArguments(...)`` (``kwargs``: full_determinism, use_cpu, ...)
``hf-trainer`` ``transformers.Trainer(...)``
``keras-fit``  ``model.fit(...)`` in a Keras module
``rank-seed``  a torch/global seeding call whose seed depends on the process rank
``ddp``        a wrapper that broadcasts rank 0's weights (DDP, FSDP(sync_module_states))
``sampler``    ``DistributedSampler(...)`` (``value``: shuffle literal; ``flag``:
               seeded from the rank)
``set-epoch``  ``sampler.set_epoch(...)`` (``flag``: inside a loop with a non-literal arg)
``loader``     ``DataLoader(...)`` (``name``: the dataset's project call target or "";
               ``value``: num_workers literal; ``ref``: its ``args.<ref>``;
               ``flag``: ``worker_init_fn`` given)
``hashseed``   the program enforces ``PYTHONHASHSEED`` (re-exec or a check)
=============  =====================================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional

import libcst as cst

from reprolint.analysis import calls
from reprolint.analysis.values import UNKNOWN, OptionRef
from reprolint.model import Span

__all__ = ["FLAG_NAMES", "UNKNOWN", "OptionRef", "Usage", "UsageMixin"]

FLAG_NAMES = (
    "torch.deterministic",  # torch.use_deterministic_algorithms / set_deterministic
    "cudnn.deterministic",
    "cudnn.benchmark",
    "tf.op-determinism",
    "hf.full-determinism",  # transformers.enable_full_determinism
)


@dataclass(frozen=True)
class Usage:
    """One fact for the RPL2xx-RPL4xx rules, in execution order among the other events."""

    kind: str
    name: str
    span: Span
    text: str
    conds: tuple[Any, ...] = ()
    value: Any = None
    ref: Optional[OptionRef] = None  # ``value`` comes from this option
    flag: bool = False
    args: tuple[Any, ...] = ()
    kwargs: tuple[tuple[str, Any], ...] = ()

    def kw(self, name: str, default: Any = None) -> Any:
        for key, value in self.kwargs:
            if key == name:
                return value
        return default

    def has_kw(self, name: str) -> bool:
        return any(key == name for key, _ in self.kwargs)


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
_CUDNN_LAYERS = frozenset(
    [f"torch.nn.{n}" for n in (
        "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
        "LSTM", "GRU", "RNN", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm",
    )]
    + [f"torch.nn.functional.{n}" for n in (
        "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
        "batch_norm",
    )]
)
_CUDNN_PREFIXES = ("torchvision.models.", "timm.create_model", "segmentation_models_pytorch.")
_TRAIN_CALLS = frozenset({"torch.autograd.grad", "torch.autograd.backward"})
_TF_TRAIN_CALLS = frozenset({
    "tensorflow.GradientTape", "tensorflow.compat.v1.Session", "tensorflow.Session",
    "tensorflow.compat.v1.train.AdamOptimizer", "tensorflow.compat.v1.train.GradientDescentOptimizer",
})
_JAX_TRAIN_PREFIXES = ("jax.grad", "jax.value_and_grad", "optax.", "flax.training.")
_TF_SETTING_CALLS = ("map", "interleave", "batch")

# Listings whose order is the file system's (RPL402).
_LISTINGS = {
    "os.listdir": "`os.listdir`", "os.scandir": "`os.scandir`", "os.walk": "`os.walk`",
    "glob.glob": "`glob.glob`", "glob.iglob": "`glob.iglob`",
    "tensorflow.io.gfile.listdir": "`tf.io.gfile.listdir`",
    "tensorflow.io.gfile.glob": "`tf.io.gfile.glob`",
}
_LISTING_METHODS = {"rglob": "`Path.rglob`", "iterdir": "`Path.iterdir`", "glob": "`Path.glob`"}
# Consumers that do not depend on the order of their argument.
_UNORDERED = frozenset({
    "sorted", "len", "set", "frozenset", "sum", "max", "min", "any", "all",
    "collections.Counter", "Counter", "numpy.unique",
})
_ORDER_TAKERS = frozenset({"list", "tuple", "enumerate", "zip", "iter", "next", "reversed"})
_STR_METHODS = frozenset({
    "lower", "upper", "strip", "lstrip", "rstrip", "casefold", "title", "capitalize",
    "replace", "read", "decode", "format", "removeprefix", "removesuffix", "group",
})
_STR_ITER_METHODS = frozenset({"split", "rsplit", "splitlines", "readlines", "tokenize", "findall"})
_STR_ITER_FUNCS = frozenset({"re.findall", "re.split", "nltk.word_tokenize", "nltk.tokenize.word_tokenize"})
# Names that hold text tokens in the code people write (a documented heuristic).
_WORDY_NAMES = frozenset({
    "words", "tokens", "chars", "characters", "vocab", "vocabulary", "letters", "tags",
    "class_names", "label_names", "categories", "filenames", "sentences", "stopwords",
})
_ORDER_FREE_METHODS = frozenset({
    "add", "endswith", "startswith", "lower", "upper", "strip", "split", "exists", "is_file",
    "is_dir", "unlink", "rename", "remove", "mkdir", "stat", "format", "info", "debug",
    "warning", "join", "with_suffix", "relative_to", "discard", "touch", "rmdir",
})


def _cuda_literal(node: Optional[cst.BaseExpression]) -> bool:
    """``"cuda"``, ``"cuda:0"``, ``f"cuda:{rank}"``, ``"cuda" if ... else "cpu"``."""
    if node is None:
        return False
    if isinstance(node, cst.SimpleString):
        try:
            value = node.evaluated_value
        except Exception:  # noqa: BLE001 - odd prefixes
            return False
        return isinstance(value, str) and (value == "cuda" or value.startswith("cuda:"))
    if isinstance(node, cst.FormattedString):
        first = node.parts[0] if node.parts else None
        return isinstance(first, cst.FormattedStringText) and first.value.startswith("cuda")
    if isinstance(node, cst.IfExp):
        return _cuda_literal(node.body) or _cuda_literal(node.orelse)
    if isinstance(node, cst.Call) and node.args:
        return _cuda_literal(node.args[0].value)  # torch.device("cuda")
    return False


def _strings_in(node: cst.CSTNode) -> str:
    """Every string literal inside an expression, joined (``XLA_FLAGS`` built by ``+``)."""
    out: list[str] = []

    def visit(n: cst.CSTNode) -> None:
        if isinstance(n, cst.SimpleString):
            try:
                value = n.evaluated_value
            except Exception:  # noqa: BLE001
                return
            if isinstance(value, str):
                out.append(value)
            return
        if isinstance(n, cst.FormattedStringText):
            out.append(n.value)
            return
        for child in n.children:
            visit(child)

    visit(node)
    return " ".join(out)


class _UsageScope:
    """Per-scope state of the order analyses."""

    __slots__ = ("str_names", "str_iters", "str_sets", "empty_sets", "listings", "appended")

    def __init__(self) -> None:
        self.str_names: set[str] = set()
        self.str_iters: set[str] = set()
        self.str_sets: set[str] = set()
        self.empty_sets: set[str] = set()
        # name -> [listing call node, description, order used?, sorted in place?]
        self.listings: dict[str, list[Any]] = {}
        # list name -> [listing call node, description, sorted later?] (filled by a loop)
        self.appended: dict[str, list[Any]] = {}


class UsageMixin:
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
        self._u_unordered: set[int] = set()  # nodes whose order nobody uses
        self._u_claimed: set[int] = set()  # listing/set nodes a consumer already judged
        self._u_store: set[int] = set()  # Name nodes that are assignment targets
        self._u_in_loop: set[int] = set()  # set_epoch calls inside a loop
        self._u_scopes: dict[int, _UsageScope] = {}
        self._u_class_attrs: dict[str, set[str]] = {}  # class -> attrs bound to an RNG instance
        self._u_class_draws: dict[str, set[str]] = {}  # class -> self.<attr>.<draw>() attrs
        self._u_attr_listings: dict[tuple[str, str], list[Any]] = {}
        self._u_calls: dict[tuple[int, str], str] = {}  # (scope, name) -> project call target

    def _u_state(self, scope: Any = None) -> _UsageScope:
        scope = scope if scope is not None else self.scope
        state = self._u_scopes.get(id(scope))
        if state is None:
            state = self._u_scopes[id(scope)] = _UsageScope()
            state_owner = getattr(self, "_u_owners", None)
            if state_owner is None:
                self._u_owners = state_owner = []
            state_owner.append(scope)  # keep the scope alive so ids stay unique
        return state

    def _u_states(self) -> list[_UsageScope]:
        """The current scope's state and the module's (names visible here)."""
        states = [self._u_state()]
        if self.scope is not self.scopes[0]:
            states.append(self._u_state(self.scopes[0]))
        return states

    def _u_emit(self, kind: str, name: str, node: cst.CSTNode, **extra: Any) -> None:
        self.emit(Usage(kind, name, self.span(node), self._u_text(node), self.current_conds(), **extra))  # type: ignore[attr-defined]

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

        self.facts.findings.append(LocalFinding(code, self.span(node), data))  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ module
    def visit_Module(self, node: cst.Module) -> None:
        self._u_init()
        body = list(node.body)
        for stmt in body:
            if _is_docstring(stmt) or _is_future_import(stmt):
                continue
            self._u_emit("entry", "", stmt)
            break

    # ------------------------------------------------------------------ calls
    def usage_call(self, node: cst.Call, qn: Optional[str]) -> None:
        """Hook from ``visit_Call``: runs for every call, before the RNG analysis."""
        from reprolint.analysis.facts import _arg, _literal

        func = node.func
        method = func.attr.value if isinstance(func, cst.Attribute) else None
        kwargs = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        torch_module = "torch" in self.uses or "lightning" in self.uses or "pytorch_lightning" in self.uses

        # --- order-insensitive consumers mark their argument first (pre-order walk)
        name = qn or (func.value if isinstance(func, cst.Name) and not self.is_local(func.value) else None)  # type: ignore[attr-defined]
        if name in _UNORDERED and node.args:
            self._u_unordered.add(id(node.args[0].value))
        if method == "sort" and isinstance(func.value, cst.Name):  # type: ignore[union-attr]
            self._u_sorted_in_place(func.value.value)  # type: ignore[union-attr]
        if method == "sort" and _self_attr(func.value) is not None:  # type: ignore[union-attr]
            key = (self.current_class() or "", _self_attr(func.value))  # type: ignore[attr-defined,union-attr]
            if key in self._u_attr_listings:
                self._u_attr_listings[key][3] = True

        # --- RPL402 listings and RPL401 set order
        self._u_listing_call(node, qn, method)
        self._u_set_order_call(node, name, method)

        # --- CUDA, cuDNN, training
        if torch_module:
            if method == "cuda":
                self._u_emit("cuda", "`.cuda()`", node)
            elif method == "to" and any(_cuda_literal(a.value) for a in node.args):
                self._u_emit("cuda", "`.to(\"cuda\")`", node)
            elif qn == "torch.device" and node.args and _cuda_literal(node.args[0].value):
                self._u_emit("cuda", "`torch.device(\"cuda\")`", node)
            elif qn in _CUDA_CALLS:
                self._u_emit("cuda", f"`{self.text(func)}`", node)  # type: ignore[attr-defined]
            elif any(_cuda_literal(kwargs.get(k)) for k in ("device", "device_type")):
                self._u_emit("cuda", "`device=\"cuda\"`", node)
            elif qn in _INIT_PG:
                backend = _arg(node, "backend", 0)
                if backend is not None and _literal(backend.value) == "nccl":
                    self._u_emit("cuda", "the NCCL backend", node)
            elif qn in _DDP and "device_ids" in kwargs and _literal(kwargs["device_ids"]) is not None:
                self._u_emit("cuda", "`DistributedDataParallel(device_ids=...)`", node)
            if qn in _CUDNN_LAYERS or (qn is not None and qn.startswith(_CUDNN_PREFIXES)):
                self._u_emit("cudnn", qn, node)
            if method == "backward" or qn in _TRAIN_CALLS or (qn or "").startswith("torch.optim."):
                self._u_emit("train", "torch", node)
        if qn in _DDP or (qn in _FSDP and _literal(kwargs.get("sync_module_states")) is True):
            self._u_emit("ddp", qn, node)
        if method == "prepare" and "accelerate" in self.uses:
            self._u_emit("ddp", "accelerate", node)

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
            if qn in _TF_TRAIN_CALLS or method in ("apply_gradients", "minimize"):
                self._u_emit("train", "tf", node)
            if method == "fit" and ("sklearn" not in self.uses or kwargs.keys() & {
                "epochs", "batch_size", "validation_data", "callbacks", "steps_per_epoch", "validation_split",
            }):
                self._u_emit("train", "tf", node)
                self._u_emit("keras-fit", "fit", node)
            if method in _TF_SETTING_CALLS and "deterministic" in kwargs:
                self._u_emit("tf-setting", f"tensorflow.data.Dataset.{method}", node,
                             kwargs=(("deterministic", _literal(kwargs["deterministic"])),))
        if qn is not None and (qn.startswith(("tensorflow.", "keras."))):
            from reprolint.analysis.determinism import tf_setting_names

            if qn in tf_setting_names():
                self._u_emit("tf-setting", qn, node)
        if "jax" in self.uses and qn is not None and qn.startswith(_JAX_TRAIN_PREFIXES):
            self._u_emit("train", "jax", node)
        if method == "set_epoch":
            arg = node.args[0].value if node.args else None
            varying = arg is not None and _literal(arg) == UNKNOWN
            self._u_emit("set-epoch", "set_epoch", node, flag=id(node) in self._u_in_loop and varying)

        # --- ops from the catalogs
        if qn is not None:
            self._u_op(node, qn)
        elif method is not None and torch_module and not self._u_is_module(func.value):  # type: ignore[union-attr]
            from reprolint.analysis.determinism import tensor_method_names

            if method in tensor_method_names():
                self._u_op(node, f"Tensor.{method}")

        # --- RNG instances held by classes (RPL403)
        cls = self.current_class()  # type: ignore[attr-defined]
        if cls is not None and isinstance(func, cst.Attribute):
            attr = _self_attr(func.value)
            if attr is not None:
                self._u_class_draws.setdefault(cls, set()).add(attr)

    def _u_is_module(self, receiver: cst.BaseExpression) -> bool:
        from reprolint.analysis.facts import _attr_chain

        chain = _attr_chain(receiver)
        return chain is not None and chain[0] in self.aliases and not self.is_local(chain[0])  # type: ignore[attr-defined]

    def _u_flag(self, name: str, node: cst.CSTNode, value_node: Optional[cst.BaseExpression],
                warn_only: bool = False) -> None:
        from reprolint.analysis.facts import _literal

        value: Any = UNKNOWN
        ref = None
        if value_node is not None:
            value = _literal(value_node)
            if value == UNKNOWN and isinstance(value_node, cst.Attribute):
                ref = OptionRef(value_node.attr.value)
            elif value == UNKNOWN and isinstance(value_node, cst.UnaryOperation) and isinstance(
                value_node.operator, cst.Not
            ) and isinstance(value_node.expression, cst.Attribute):
                ref = OptionRef(value_node.expression.attr.value, negated=True)
        self._u_emit("flag", name, node, value=value, ref=ref, flag=warn_only)

    def _u_env(self, node: cst.CSTNode, key: Optional[cst.BaseExpression], value: cst.BaseExpression,
               name: Optional[str] = None) -> None:
        from reprolint.analysis.facts import _literal

        if name is None:
            name = _literal(key) if key is not None else UNKNOWN
        if not isinstance(name, str) or name == UNKNOWN:
            return
        literal = _literal(value)
        text = literal if isinstance(literal, str) and literal != UNKNOWN else None
        if text is None and name == "XLA_FLAGS":
            text = _strings_in(value)
        self._u_emit("env", name, node, value=text)

    def _u_loader(self, node: cst.Call, kwargs: dict[str, cst.BaseExpression]) -> None:
        from reprolint.analysis.facts import _literal

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
        self._u_emit("loader", target, node, value=value, ref=ref,
                     flag=given is not None and _literal(given) is not None)

    def _u_bound_call(self, name: str) -> str:
        """The project call last assigned to ``name`` here or at module level ("" if none)."""
        for scope in (self.scope, self.scopes[0]):
            target = self._u_calls.get((id(scope), name))
            if target:
                return target
        return ""

    def _u_op(self, node: cst.Call, name: str) -> None:
        from reprolint.analysis.determinism import op_names
        from reprolint.analysis.facts import _literal

        if name not in op_names():
            return
        args = tuple(_literal(a.value) for a in node.args if a.keyword is None and not a.star)
        kwargs = tuple(
            (a.keyword.value, _literal(a.value)) for a in node.args if a.keyword is not None
        )
        self._u_emit("op", name, node, args=args, kwargs=kwargs, flag=any(a.star for a in node.args))

    # ------------------------------------------------------------------ assignments
    def usage_assign(self, targets: list[cst.BaseExpression], value: cst.BaseExpression) -> None:
        """Hook from ``visit_Assign``/``visit_AnnAssign`` (before the value is walked)."""
        from reprolint.analysis.facts import _literal

        for target in targets:
            for name_node in _target_names(target):
                self._u_store.add(id(name_node))
        state = self._u_state()
        # torch.backends.cudnn.* = ..., os.environ[...] = ..., Options.deterministic = ...
        for target in targets:
            if isinstance(target, cst.Attribute):
                qn = self.qualify(target) or ""  # type: ignore[attr-defined]
                if qn in ("torch.backends.cudnn.deterministic", "torch.backends.cudnn.benchmark"):
                    self._u_flag(qn.replace("torch.backends.", ""), target, value)
                elif target.attr.value in ("deterministic", "experimental_deterministic") and (
                    "tensorflow" in self.uses or "keras" in self.uses
                ):
                    self._u_emit("tf-setting", f"tensorflow.data.Options.{target.attr.value}", target,
                                 value=_literal(value))
            elif isinstance(target, cst.Subscript) and (self.qualify(target.value) or "") == "os.environ":  # type: ignore[attr-defined]
                element = target.slice[0].slice if target.slice else None
                if isinstance(element, cst.Index):
                    self._u_env(target, element.value, value)
        if "torch" in self.uses and _cuda_literal(value) and not isinstance(value, cst.Call):
            self._u_emit("cuda", f"`{self._u_text(value)}`", value)
        # RNG instances bound to self attributes (RPL403)
        cls = self.current_class()  # type: ignore[attr-defined]
        # only generators made in __init__ are copied into the workers
        in_init = self.scope.kind == "function" and self.scope.name.endswith(".__init__.")
        if cls is not None and in_init and isinstance(value, cst.Call):
            qn = self.qualify(value.func) or ""  # type: ignore[attr-defined]
            if qn in self.catalog.instances or qn == "numpy.random.Generator":  # type: ignore[attr-defined]
                for target in targets:
                    attr = _self_attr(target)
                    if attr is not None:
                        self._u_class_attrs.setdefault(cls, set()).add(attr)
        # names bound to project calls (a dataset instance for DataLoader)
        if isinstance(value, cst.Call):
            target_call = self.call_target(value.func) or ""  # type: ignore[attr-defined]
            for target in targets:
                if isinstance(target, cst.Name):
                    self._u_calls[(id(self.scope), target.value)] = target_call
        # --- string kinds
        names = [t.value for t in targets if isinstance(t, cst.Name)]
        kind = self._u_kind(value)
        for name in names:
            for bucket in (state.str_names, state.str_iters, state.str_sets, state.empty_sets):
                bucket.discard(name)
            if kind == "set":
                state.str_sets.add(name)
            elif kind == "iter":
                state.str_iters.add(name)
            elif kind == "str":
                state.str_names.add(name)
            elif isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "set" and not value.args:
                state.empty_sets.add(name)
        # --- listings stored in a variable or attribute
        root = self._u_listing_root(value)
        if root is not None and id(root[0]) not in self._u_unordered:
            self._u_claimed.add(id(root[0]))
            for target in targets:
                if isinstance(target, cst.Name):
                    state.listings[target.value] = [root[0], root[1], False, False]
                elif _self_attr(target) is not None and self.current_class() is not None:  # type: ignore[attr-defined]
                    key = (self.current_class() or "", _self_attr(target))  # type: ignore[attr-defined]
                    self._u_attr_listings[key] = [root[0], root[1], False, False]
        else:
            for name in names:
                if name in state.listings and not _mentions(value, name):
                    del state.listings[name]

    # ------------------------------------------------------------------ loops
    def usage_for(self, node: cst.For) -> None:
        """Hook from ``visit_For`` (before the body is walked)."""
        for name_node in _target_names(node.target):
            self._u_store.add(id(name_node))
        state = self._u_state()
        # set_epoch inside the loop
        for call in _find_calls(node.body, "set_epoch"):
            self._u_in_loop.add(id(call))
        # loop variables over text
        kind = self._u_kind(node.iter)
        if isinstance(node.target, cst.Name):
            if kind in ("iter", "set", "str"):
                state.str_names.add(node.target.value)
        # RPL401: for w in <set of str>
        if kind == "set" and id(node.iter) not in self._u_claimed:
            self._u_claimed.add(id(node.iter))
            self._u_finding("RPL401", node.iter, expression=self._u_src(node.iter), variant="for")
        # RPL402: for f in <listing>
        root = self._u_listing_root(node.iter)
        if root is not None and id(root[0]) not in self._u_unordered:
            self._u_claimed.add(id(root[0]))
            self._u_listing_loop(node, root)
        elif isinstance(node.iter, cst.Name) and node.iter.value in state.listings:
            self._u_claimed.add(id(node.iter))
            self._u_listing_loop(node, (None, None), pending=node.iter.value)

    def usage_loop(self, node: cst.While) -> None:
        """Hook from ``visit_While``: ``set_epoch`` calls in its body are in a loop."""
        for call in _find_calls(node.body, "set_epoch"):
            self._u_in_loop.add(id(call))

    def _u_listing_loop(self, node: cst.For, root: tuple[Any, Any], pending: Optional[str] = None) -> None:
        call, description = root
        body = node.body
        is_walk = description == _LISTINGS["os.walk"]
        if is_walk and isinstance(node.target, cst.Tuple) and len(node.target.elements) == 3:
            dirs = node.target.elements[1].value
            files = node.target.elements[2].value
            dirs_sorted = isinstance(dirs, cst.Name) and _sorts(body, dirs.value)
            files_sorted = isinstance(files, cst.Name) and _sorts(body, files.value)
            if dirs_sorted and files_sorted:
                return
        yields = _contains(body, (cst.Yield,))
        calls = [c for c in _walk(body) if isinstance(c, cst.Call)]
        appended = [
            c for c in calls
            if isinstance(c.func, cst.Attribute) and c.func.attr.value in ("append", "extend", "insert")
            and isinstance(c.func.value, cst.Name)
        ]
        others = [c for c in calls if c not in appended and not self._u_order_free(c)]
        if not yields and not others and not appended:
            return  # each entry is handled on its own (copy, delete, count)
        state = self._u_state()
        if pending is not None:
            state.listings[pending][2] = True
            return
        if not yields and not others:
            for c in appended:
                state.appended[c.func.value.value] = [call, description, False]  # type: ignore[union-attr]
            return
        self._u_report_listing(call, description)

    def _u_order_free(self, call: cst.Call) -> bool:
        """Calls whose effect does not depend on the order of the loop (file operations,
        logging, string tests, adding to a set)."""
        qn = self.qualify(call.func) or ""  # type: ignore[attr-defined]
        if qn.startswith(("os.", "shutil.", "logging.", "pathlib.")):
            return True
        func = call.func
        if isinstance(func, cst.Name):
            return func.value in ("print", "len", "str", "int", "float", "isinstance")
        if isinstance(func, cst.Attribute):
            return func.attr.value in _ORDER_FREE_METHODS
        return False

    # ------------------------------------------------------------------ names
    def visit_Name(self, node: cst.Name) -> None:
        if id(node) in self._u_store:
            return
        for state in self._u_states():
            entry = state.listings.get(node.value)
            if entry is not None:
                if id(node) not in self._u_unordered and id(node) not in self._u_claimed:
                    entry[2] = True
                return

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if not self._u_attr_listings:
            return
        attr = _self_attr(node)
        if attr is None or id(node) in self._u_store:
            return
        key = (self.current_class() or "", attr)  # type: ignore[attr-defined]
        entry = self._u_attr_listings.get(key)
        if entry is not None and id(node) not in self._u_unordered and id(node) not in self._u_claimed:
            entry[2] = True

    def visit_Comparison(self, node: cst.Comparison) -> None:
        for comp in node.comparisons:
            if isinstance(comp.operator, (cst.In, cst.NotIn)):
                self._u_unordered.add(id(comp.comparator))

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if isinstance(node.item, cst.Call) and isinstance(node.asname, cst.AsName):
            qn = self.qualify(node.item.func) or (  # type: ignore[attr-defined]
                node.item.func.value if isinstance(node.item.func, cst.Name) else ""
            )
            if qn in ("open", "io.open", "codecs.open") and isinstance(node.asname.name, cst.Name):
                self._u_state().str_iters.add(node.asname.name.value)

    def _u_sorted_in_place(self, name: str) -> None:
        for state in self._u_states():
            if name in state.listings:
                state.listings[name][3] = True
            if name in state.appended:
                state.appended[name][2] = True

    # ------------------------------------------------------------------ comprehensions
    def visit_ListComp(self, node: cst.ListComp) -> None:
        self._u_comprehension(node, ordered=True)

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> None:
        self._u_comprehension(node, ordered=True)

    def visit_DictComp(self, node: cst.DictComp) -> None:
        self._u_comprehension(node, ordered=True)

    def visit_SetComp(self, node: cst.SetComp) -> None:
        self._u_comprehension(node, ordered=False)

    def _u_comprehension(self, node: Any, ordered: bool) -> None:
        unordered = not ordered or id(node) in self._u_unordered
        claimed = id(node) in self._u_claimed
        comp = node.for_in
        state = self._u_state()
        while comp is not None:
            if unordered:
                self._u_unordered.add(id(comp.iter))
            elif claimed:
                self._u_claimed.add(id(comp.iter))
            elif self._u_kind(comp.iter) == "set" and id(comp.iter) not in self._u_claimed:
                self._u_claimed.add(id(comp.iter))
                self._u_finding("RPL401", comp.iter, expression=self._u_src(comp.iter), variant="comprehension")
            if isinstance(comp.target, cst.Name) and self._u_kind(comp.iter) in ("iter", "set", "str"):
                state.str_names.add(comp.target.value)
            for name_node in _target_names(comp.target):
                self._u_store.add(id(name_node))
            comp = comp.inner_for_in

    # ------------------------------------------------------------------ RPL401
    def _u_set_order_call(self, node: cst.Call, name: Optional[str], method: Optional[str]) -> None:
        if id(node) in self._u_unordered:
            for arg in node.args:
                self._u_unordered.add(id(arg.value))
            return
        func = node.func
        candidates: list[cst.BaseExpression] = []
        if name in _ORDER_TAKERS or name in ("numpy.array", "numpy.asarray", "torch.tensor", "dict.fromkeys"):
            candidates = [a.value for a in node.args if a.keyword is None]
        elif isinstance(func, cst.Attribute) and method == "fromkeys" and isinstance(func.value, cst.Name) and func.value.value == "dict":
            candidates = [node.args[0].value] if node.args else []
        elif method == "join" and node.args and isinstance(func, cst.Attribute) and self._u_kind(func.value) == "str":
            candidates = [node.args[0].value]
        elif method == "pop" and not node.args and isinstance(func, cst.Attribute):
            if self._u_kind(func.value) == "set":
                self._u_finding("RPL401", node, expression=self._u_src(node), variant="pop")
            return
        for arg in candidates:
            if id(arg) in self._u_claimed:
                continue
            if self._u_kind(arg) == "set":
                self._u_claimed.add(id(arg))
                self._u_finding(
                    "RPL401", node, expression=self._u_src(node),
                    function=name,
                )
                return
        # set.add/update with text: the set holds text
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and method in ("add", "update"):
            var = func.value.value
            for state in self._u_states():
                if var in state.empty_sets and node.args:
                    arg_kind = self._u_kind(node.args[0].value)
                    if (method == "add" and arg_kind == "str") or (method == "update" and arg_kind in ("iter", "set", "str")):
                        state.empty_sets.discard(var)
                        state.str_sets.add(var)

    def _u_kind(self, node: Optional[cst.BaseExpression], depth: int = 0) -> Optional[str]:
        """"str" (text), "iter" (iterable of text), "set" (set of text) or None."""
        if node is None or depth > 8:
            return None
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
            return "str"
        if isinstance(node, cst.Name):
            for state in self._u_states():
                if node.value in state.str_sets:
                    return "set"
                if node.value in state.str_iters:
                    return "iter"
                if node.value in state.str_names:
                    return "str"
            if node.value in _WORDY_NAMES:
                return "iter"
            return None
        if isinstance(node, cst.Subscript):
            return "str" if self._u_kind(node.value, depth + 1) == "str" else None
        if isinstance(node, cst.BinaryOperation):
            left = self._u_kind(node.left, depth + 1)
            right = self._u_kind(node.right, depth + 1)
            if isinstance(node.operator, (cst.BitOr, cst.BitAnd, cst.Subtract, cst.BitXor)):
                if "set" in (left, right):
                    return "set"
            if isinstance(node.operator, cst.Add) and "str" in (left, right):
                return "str"
            return None
        if isinstance(node, cst.Set):
            return "set" if any(self._u_kind(e.value, depth + 1) == "str" for e in node.elements) else None
        if isinstance(node, (cst.List, cst.Tuple)):
            return "iter" if node.elements and all(
                self._u_kind(e.value, depth + 1) == "str" for e in node.elements
            ) else None
        if isinstance(node, cst.SetComp):
            return "set" if self._u_elt_is_text(node, depth) else None
        if isinstance(node, (cst.ListComp, cst.GeneratorExp)):
            return "iter" if self._u_elt_is_text(node, depth) else None
        if isinstance(node, cst.Call):
            func = node.func
            qn = self.qualify(func)  # type: ignore[attr-defined]
            bare = func.value if isinstance(func, cst.Name) and not self.is_local(func.value) else None  # type: ignore[attr-defined]
            if bare in ("set", "frozenset"):
                if node.args and self._u_kind(node.args[0].value, depth + 1) in ("str", "iter", "set"):
                    return "set"
                return None
            if bare == "str":
                return "str"
            if bare in ("list", "tuple", "sorted"):
                inner = self._u_kind(node.args[0].value, depth + 1) if node.args else None
                return "iter" if inner in ("iter", "set", "str") else None
            if qn in _STR_ITER_FUNCS or qn in _LISTINGS:
                return "iter"
            if isinstance(func, cst.Attribute):
                method = func.attr.value
                receiver_kind = self._u_kind(func.value, depth + 1)
                if method in ("union", "intersection", "difference", "symmetric_difference") and receiver_kind == "set":
                    return "set"
                if method in _STR_ITER_METHODS or method in ("rglob", "iterdir"):
                    return "iter"
                if method in _STR_METHODS and qn is None:
                    return "str"
                if method == "join" and receiver_kind == "str":
                    return "str"
            return None
        return None

    def _u_elt_is_text(self, node: Any, depth: int) -> bool:
        saved = self._u_state().str_names.copy()
        comp = node.for_in
        state = self._u_state()
        while comp is not None:
            if isinstance(comp.target, cst.Name) and self._u_kind(comp.iter, depth + 1) in ("iter", "set", "str"):
                state.str_names.add(comp.target.value)
            comp = comp.inner_for_in
        result = self._u_kind(node.elt, depth + 1) == "str"
        state.str_names.clear()
        state.str_names.update(saved)
        return result

    # ------------------------------------------------------------------ RPL402
    def _u_listing_root(self, node: cst.BaseExpression, depth: int = 0) -> Optional[tuple[cst.Call, str]]:
        """The listing call an expression takes its order from: the call itself,
        ``list(...)``, a comprehension, ``filter``/``map`` over it."""
        if depth > 4:
            return None
        if isinstance(node, cst.Call):
            qn = self.qualify(node.func)  # type: ignore[attr-defined]
            if qn in _LISTINGS:
                return node, _LISTINGS[qn]
            func = node.func
            if isinstance(func, cst.Attribute) and qn is None and func.attr.value in _LISTING_METHODS:
                if func.attr.value != "glob" or not self._u_is_module(func.value):
                    if func.attr.value == "iterdir" or node.args:
                        return node, _LISTING_METHODS[func.attr.value]
            bare = func.value if isinstance(func, cst.Name) else None
            if bare in ("list", "tuple", "iter") and node.args:
                return self._u_listing_root(node.args[0].value, depth + 1)
            if bare in ("filter", "map") and len(node.args) >= 2:
                return self._u_listing_root(node.args[1].value, depth + 1)
            return None
        if isinstance(node, (cst.ListComp, cst.GeneratorExp)):
            return self._u_listing_root(node.for_in.iter, depth + 1)
        return None

    def _u_listing_call(self, node: cst.Call, qn: Optional[str], method: Optional[str]) -> None:
        if id(node) in self._u_unordered:
            for arg in node.args:
                self._u_unordered.add(id(arg.value))
        if id(node) in self._u_claimed and node.args:
            bare = node.func.value if isinstance(node.func, cst.Name) else None
            if bare in ("list", "tuple", "iter"):
                self._u_claimed.add(id(node.args[0].value))
            elif bare in ("filter", "map") and len(node.args) >= 2:
                self._u_claimed.add(id(node.args[1].value))
        root = self._u_listing_root(node)
        if root is None or root[0] is not node:
            return
        if id(node) in self._u_unordered or id(node) in self._u_claimed:
            return
        self._u_report_listing(node, root[1])

    def _u_report_listing(self, node: Optional[cst.CSTNode], description: Optional[str]) -> None:
        if node is None or description is None:
            return
        self._u_finding("RPL402", node, function=description.strip("`"))

    # ------------------------------------------------------------------ end
    def usage_finish(self) -> None:
        """Report listings stored in variables whose order was used and never sorted."""
        from dataclasses import replace  # noqa: F401 - keep imports local to the hook

        for state in self._u_scopes.values():
            for call, description, used, sorted_ in state.listings.values():
                if used and not sorted_:
                    self._u_report_listing(call, description)
            for call, description, sorted_ in state.appended.values():
                if not sorted_:
                    self._u_report_listing(call, description)
        for call, description, used, sorted_ in self._u_attr_listings.values():
            if used and not sorted_:
                self._u_report_listing(call, description)
        rngs: dict[str, list[str]] = {}
        for cls, attrs in self._u_class_attrs.items():
            drawn = sorted(attrs & self._u_class_draws.get(cls, set()))
            if drawn:
                rngs[cls] = drawn
        self.facts.class_rngs = rngs


# ----------------------------------------------------------------------------- helpers


def lits_get(pairs: tuple[tuple[str, Any], ...], key: str, default: Any = None) -> Any:
    for name, value in pairs:
        if name == key:
            return value
    return default


def _literal_kwargs(node: cst.Call) -> tuple[tuple[str, Any], ...]:
    from reprolint.analysis.facts import _literal

    out = []
    for arg in node.args:
        if arg.keyword is not None:
            value = _literal(arg.value)
            if value == UNKNOWN and isinstance(arg.value, cst.Attribute):
                value = OptionRef(arg.value.attr.value)
            out.append((arg.keyword.value, value))
    return tuple(out)


def _is_docstring(stmt: cst.CSTNode) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def _is_future_import(stmt: cst.CSTNode) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and any(
            isinstance(s, cst.ImportFrom) and isinstance(s.module, cst.Name) and s.module.value == "__future__"
            for s in stmt.body
        )
    )


def _self_attr(node: cst.BaseExpression) -> Optional[str]:
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
        return node.attr.value
    return None


def _target_names(target: cst.BaseExpression) -> list[cst.Name]:
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        out: list[cst.Name] = []
        for element in target.elements:
            out.extend(_target_names(element.value))
        return out
    if isinstance(target, cst.StarredElement):
        return _target_names(target.value)
    return []


def _walk(node: cst.CSTNode) -> Any:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(current.children)


def _find_calls(node: cst.CSTNode, *names: str) -> list[cst.Call]:
    wanted = set(names)
    found = []
    for child in _walk(node):
        if isinstance(child, cst.Call):
            func = child.func
            name = func.attr.value if isinstance(func, cst.Attribute) else (
                func.value if isinstance(func, cst.Name) else None
            )
            if name in wanted:
                found.append(child)
    return found


def _contains(node: cst.CSTNode, kinds: tuple[type, ...]) -> bool:
    return any(isinstance(child, kinds) for child in _walk(node))


def _mentions(node: cst.CSTNode, name: str) -> bool:
    return any(isinstance(child, cst.Name) and child.value == name for child in _walk(node))


def _sorts(body: cst.CSTNode, name: str) -> bool:
    """``name.sort()`` or ``sorted(name)`` somewhere in ``body``."""
    for call in _find_calls(body, "sort", "sorted"):
        func = call.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == name:
            return True
        if isinstance(func, cst.Name) and call.args and isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == name:
            return True
    return False
