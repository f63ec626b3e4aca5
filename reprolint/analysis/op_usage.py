"""What the op rules (RPL2xx) need to know about a tensor op call, collected in the one pass.

:class:`OpUsageFacts` is the op-semantics part of the fact collector (mixed into it through
:class:`~reprolint.analysis.usage.UsageMixin`): it records an
:class:`~reprolint.analysis.usage_events.OpCall` for each catalogued op call (and for a
parameter indexed by an integer tensor, and a loss module called on a spatial input), with
the argument values and the facts seen in the source that decide the catalog entry's
runtime condition (no-grad input, unique or width-1 index, integer input, spatial input...),
and tracks what assigned names hold for them (tensor kinds, loss modules, parameters).
"""

from __future__ import annotations

from typing import Any, Optional, Union

import libcst as cst

from reprolint.analysis.config_files import config_key
from reprolint.analysis.cst_helpers import children, descendants, find_argument, mentions_of, node_functions, self_attr
from reprolint.analysis.cst_helpers import literal as _literal
from reprolint.analysis.detached import only_detached
from reprolint.analysis.listing_order import PROGRESS_BARS
from reprolint.analysis.usage_events import OpCall
from reprolint.analysis.values import UNKNOWN, OptionRef

__all__ = ["OpUsageFacts", "moved_from"]


# TF lookups whose gradient into their `params` is an IndexedSlices, and what makes a variable.
_TF_GATHERS = frozenset({"tensorflow.gather", "tensorflow.compat.v1.gather", "tensorflow.nn.embedding_lookup",
                         "tensorflow.compat.v1.nn.embedding_lookup"})
_TF_VARIABLES = frozenset({"tensorflow.Variable", "tensorflow.compat.v1.Variable", "tensorflow.get_variable",
                           "tensorflow.compat.v1.get_variable"})

# Losses whose CUDA kernel for a spatial input (N, C, d1, ...) accumulates with atomics.
_LOSS_FUNCTIONS = frozenset({"torch.nn.functional.cross_entropy", "torch.nn.functional.nll_loss"})
_LOSS_MODULES = frozenset({"torch.nn.CrossEntropyLoss", "torch.nn.NLLLoss"})

# Legacy typed tensor constructors: given sizes or a list, a new tensor without grad.
_LEGACY_CONSTRUCTORS = frozenset(
    f"torch.{n}Tensor" for n in ("Float", "Double", "Half", "Long", "Int", "Short", "Byte", "Bool", "BFloat16")
)

# Methods that move a tensor to a device or cast it: the same tensor, as far as grad goes.
_MOVES = frozenset({"cuda", "cpu", "to", "float", "double", "half", "long", "int", "bool", "type", "contiguous"})


# (names, not the classes: reading libcst's classes here would import the real libcst
# where the command line only lists rules; see reprolint/_lazy.py)
_ARITHMETIC = frozenset({"Multiply", "Add", "Subtract", "Divide"})

_MAX_POOLS_3D = frozenset({"torch.nn.MaxPool3d", "torch.nn.functional.max_pool3d"})


def _disjoint_windows(given: list[cst.BaseExpression], keywords: dict[str, cst.BaseExpression]) -> bool:
    """A max pooling's windows do not overlap: ``kernel_size, stride, padding, dilation``
    (positional from the kernel on, or by keyword) with every stride at least the kernel
    (``stride`` left out or None: the kernel) and dilation 1, all literal."""
    def sizes(node: cst.BaseExpression) -> Optional[tuple[int, ...]]:
        if type(node) is cst.Integer:
            return (int(node.value),) * 3  # type: ignore[attr-defined]
        parts = node.elements if type(node) in (cst.Tuple, cst.List) else ()  # type: ignore[attr-defined]
        if len(parts) == 3 and all(type(e) is cst.Element and type(e.value) is cst.Integer for e in parts):
            return tuple(int(e.value.value) for e in parts)
        return None

    named = dict(zip(("kernel_size", "stride", "padding", "dilation"), given))
    named.update({k: v for k, v in keywords.items() if k in ("kernel_size", "stride", "padding", "dilation")})
    kernel = sizes(named["kernel_size"]) if "kernel_size" in named else None
    stride_node = named.get("stride")
    stride = kernel if stride_node is None or _literal(stride_node) is None else sizes(stride_node)
    dilation = sizes(named["dilation"]) if "dilation" in named else (1, 1, 1)
    return kernel is not None and stride is not None and dilation == (1, 1, 1) and all(
        s >= k for s, k in zip(stride, kernel)
    )


def _int_index(node: cst.BaseExpression) -> bool:
    """An integer literal, or its negation (``-1``)."""
    if type(node) is cst.UnaryOperation and type(node.operator) is cst.Minus:
        node = node.expression
    return type(node) is cst.Integer


def moved_from(value: cst.BaseExpression) -> cst.BaseExpression:
    """What a chain of device moves and casts starts from (``self.p.cuda()``: ``self.p``)."""
    while type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value in _MOVES:  # type: ignore[attr-defined]
        value = value.func.value  # type: ignore[attr-defined]
    return value


# Tensor factories: what they return requires no grad unless told to.
_FACTORIES = frozenset(
    f"torch.{n}" for n in (
        "arange", "zeros", "ones", "full", "empty", "eye", "tensor", "linspace", "randint", "randperm",
        # a NumPy array's data: a new leaf without grad (not `torch.Tensor(x)` nor
        # `torch.as_tensor(x)`: given a tensor that requires grad, they return it or an
        # alias that requires grad too)
        "from_numpy",
    )
)
# Methods that keep the set of values of an index tensor (and its no-repeat property).
_SAME_VALUES = frozenset({
    "squeeze", "flatten", "view", "reshape", "long", "int", "to", "cuda", "cpu", "contiguous", "detach",
})
# Calls whose result is an index tensor with no repeated value.
# TensorFlow's scatters by coordinates -> where `indices` goes among the positional arguments
_TF_SCATTER_ND = {
    "tensorflow.scatter_nd": 0, "tensorflow.tensor_scatter_nd_add": 1, "tensorflow.tensor_scatter_nd_sub": 1,
    "tensorflow.tensor_scatter_nd_update": 1, "tensorflow.compat.v1.scatter_nd": 0,
}
_UNIQUE_INDEX = frozenset(
    f"torch.{n}" for n in ("nonzero", "argwhere", "unique", "arange", "randperm")
)
_SHAPE_METHODS = frozenset({
    "unsqueeze", "view", "reshape", "expand", "repeat", "flatten", "t", "long", "int", "float", "to", "cuda",
})
ON_CPU = "on-cpu"  # a tensor kind: visibly on the CPU (OpUsageFacts._u_on_cpu)
PARAM_VIEW = "param-view:"  # a tensor kind: a parameter of the function, or a view of it
# Methods whose result stays on its input's device: the reshapes and casts, not `to`/`cuda`.
_CPU_KEEPING = (_SHAPE_METHODS - {"to", "cuda"}) | {"contiguous", "detach", "clone", "squeeze", "permute", "transpose"}


_CASTS = frozenset({"long", "int", "to", "type", "cuda", "cpu", "contiguous", "detach"})


# The pre-0.4 autograd wrapper: since torch 0.4 `Variable(t)` returns the tensor itself.
_VARIABLES = frozenset({"torch.autograd.Variable", "torch.autograd.variable.Variable"})

# Ops that take (dim, index, ...) and read or write one element per index entry along dim.
_BY_INDEX_ALONG_DIM = ("gather", "scatter", "scatter_", "scatter_add", "scatter_add_", "scatter_reduce", "scatter_reduce_")


# calls that return the module they are called on (`nn.Upsample(...).to(device)`)
CHAINED_MODULE = frozenset({"to", "cuda", "cpu", "half", "float", "double", "eval", "train", "requires_grad_"})


def _width_one(index: cst.BaseExpression, dim: int, kinds: Any = None) -> bool:
    """The index of a gather visibly has width 1 along ``dim``: ``i.unsqueeze(dim)``,
    ``i.view(...)``/``reshape(...)``/``expand(...)`` with a literal 1 as the size of
    ``dim`` (``view(-1, 1)`` for dim 1 or -1, ``view(-1, 1, m)`` for dim 1; an ``expand``
    that keeps it with -1), ``i[:, None]`` (dim 1 or
    -1), ``i[..., None]`` (dim -1), one draw per row (``probs.multinomial(1)``, dim 1 or
    -1), the result of a gather by such an index (a gather's result has its index's
    shape), a name bound to one (``width1:<dim>`` among ``kinds(name)``), through casts
    (``.long()``, ``.to(...)``, ``.data``), a tensor made from such data
    (``torch.LongTensor(acts.reshape(-1, 1))``) and arithmetic with a number; or the
    ``actions`` field of a replay batch (``data.actions``, ``replay_data.actions``) along
    dim 1 or -1: a replay buffer (Stable-Baselines3's, which cleanrl uses too) stores a
    discrete action as a column of width 1, and a gather over Q-values by action takes one
    value per row."""

    node = index
    while True:
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in _CASTS:
            node = node.func.value
        elif isinstance(node, cst.BinaryOperation) and isinstance(node.right, (cst.Integer, cst.Float)):
            node = node.left  # `lengths.unsqueeze(-1) - 1`: a number keeps the shape
        elif isinstance(node, cst.BinaryOperation) and isinstance(node.left, (cst.Integer, cst.Float)):
            node = node.right
        elif isinstance(node, cst.Attribute) and node.attr.value == "data":
            node = node.value  # `probs.multinomial(1).data`: the same tensor, out of the graph
        elif (data := _made_from(node)) is not None:
            node = data  # `torch.LongTensor(acts.reshape(-1, 1))`: the array's shape
        else:
            break
    if isinstance(node, cst.Name) and kinds is not None:
        return f"width1:{dim}" in kinds(node.value)
    if isinstance(node, cst.Call) and _keeps_reduced_dim(node, dim):
        return True
    gathered = _gather_index(node)
    if gathered is not None:
        return gathered[0] == dim and _width_one(gathered[1], dim, kinds)
    if isinstance(node, cst.Call) and _one_sample(node):
        # one draw per row of (at most 2-D) probabilities: shape (rows, 1) or (1,)
        return dim in (1, -1)
    if isinstance(node, cst.Attribute) and node.attr.value == "actions":
        return dim in (1, -1)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        method = node.func.attr.value
        values = [_literal(a.value) for a in node.args if a.keyword is None]
        if method == "unsqueeze" and len(values) == 1:
            return values[0] == dim
        if method in ("view", "reshape", "expand") and values and not any(a.star for a in node.args):
            at = dim if dim >= 0 else len(values) + dim
            if not 0 <= at < len(values) or isinstance(values[at], bool):
                return False
            if method == "expand" and values[at] == -1:
                # `expand(b, -1, n)` keeps the size of that axis (same number of axes)
                return _width_one(node.func.value, dim, kinds)
            return values[at] == 1
        return False
    if isinstance(node, cst.Subscript) and node.slice:
        last = node.slice[-1].slice
        if not (isinstance(last, cst.Index) and isinstance(last.value, cst.Name) and last.value.value == "None"):
            return False
        first = node.slice[0].slice
        if len(node.slice) == 2 and isinstance(first, cst.Slice) and first.lower is None and first.upper is None:
            return dim in (1, -1)
        if len(node.slice) == 2 and isinstance(first, cst.Index) and isinstance(first.value, cst.Ellipsis):
            return dim == -1
    return False


# torch's constructors of a tensor from data (an array, a nested list): the tensor has
# the data's shape
_FROM_DATA = frozenset({
    "tensor", "as_tensor", "from_numpy", "Tensor", "LongTensor", "IntTensor", "FloatTensor", "DoubleTensor",
})


def _made_from(node: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    """The data ``torch.tensor(data)`` (and the other constructors from data, given only
    the data and keywords such as ``dtype=``/``device=``) makes a tensor of the shape of."""
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in _FROM_DATA and isinstance(node.func.value, cst.Name)
            and node.func.value.value == "torch"):
        return None
    positional = [a for a in node.args if a.keyword is None]
    if len(positional) != 1 or positional[0].star:
        return None
    return positional[0].value


def _gather_index(node: cst.BaseExpression) -> Optional[tuple[Any, cst.BaseExpression]]:
    """(dim, index) of ``torch.gather(x, dim, index)`` or ``x.gather(dim, index)``: the
    literal value of ``dim`` (UNKNOWN when it is none) and the index; None for any other
    expression."""
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "gather"):
        return None
    function = isinstance(node.func.value, cst.Name) and node.func.value.value == "torch"
    dim = find_argument(node, "dim", 1 if function else 0)
    index = find_argument(node, "index", 2 if function else 1)
    if dim is None or index is None:
        return None
    return _literal(dim.value), index.value


def _one_sample(node: cst.Call) -> bool:
    """``probs.multinomial(1)``, ``probs.multinomial(num_samples=1)`` or
    ``torch.multinomial(probs, 1)``: one index drawn per row, in a column of width 1."""
    func = node.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "multinomial"):
        return False
    function = isinstance(func.value, cst.Name) and func.value.value == "torch"
    count = find_argument(node, "num_samples", 1 if function else 0)
    return count is not None and _literal(count.value) == 1


def _axis(node: cst.Call, position: int) -> Optional[int]:
    """The ``dim`` a call is given (keyword, else positional ``position``; -1 when it
    is left out), or None when it is not a literal integer (or a ``*args`` may hold it)."""
    if any(a.star == "*" for a in node.args):
        return None
    arg = find_argument(node, "dim", position)
    value = _literal(arg.value) if arg is not None else -1
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def distinct_axis(node: cst.BaseExpression, qualify: Any, kinds: Any) -> Optional[int]:
    """The axis along which an index tensor visibly holds no value twice in any line:
    the indices of a sort (``torch.argsort(noise, dim=1)``, ``x.sort(dim)[1]``,
    ``topk(...).indices``) or ``torch.randperm(n)``, through casts, slices that keep
    every axis (``ids[:, :keep]``), ``unsqueeze`` (the axis moves with it), ``expand``
    and a ``repeat`` that leaves that axis alone (``.repeat(1, 1, D)``); a name bound to
    one (``distinct:<axis>`` kinds). MAE's masking gathers by such an index: the backward
    scatter-add writes each element once. None when not visible."""
    if isinstance(node, cst.Name):
        found = [k for k in kinds(node.value) if k.startswith("distinct:")]
        return int(found[0].split(":")[1]) if found else None
    if isinstance(node, cst.Subscript):
        base = node.value
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) and _literal(node.slice[0].slice.value) == 1:
            return sorted_indices_axis(base, qualify)
        if all(isinstance(e.slice, cst.Slice) for e in node.slice):
            return distinct_axis(base, qualify, kinds)
        return None
    if isinstance(node, cst.Attribute) and node.attr.value == "indices":
        return sorted_indices_axis(node.value, qualify)
    if not isinstance(node, cst.Call):
        return None
    qn = qualify(node.func) or ""
    if qn == "torch.randperm":
        return 0
    if qn == "torch.argsort":
        return _axis(node, 1)
    if not isinstance(node.func, cst.Attribute) or qn.startswith(("numpy.", "np.")):
        return None
    method, base = node.func.attr.value, node.func.value
    if method == "argsort":
        return _axis(node, 0)
    if method in _CASTS or method in ("expand", "expand_as"):
        return distinct_axis(base, qualify, kinds)
    inner = distinct_axis(base, qualify, kinds)
    values = [_literal(a.value) for a in node.args if a.keyword is None]
    if inner is None:
        return None
    if method == "unsqueeze" and len(values) == 1 and isinstance(values[0], int):
        at = values[0]
        if at == -1:
            return inner - 1 if inner < 0 else inner  # a new last axis
        if at >= 0 and inner >= 0:
            return inner + 1 if at <= inner else inner
        return None
    if method == "repeat" and -len(values) <= inner < len(values):
        # the count for that axis (the others may be anything: `.repeat(1, 1, D)`)
        return inner if values[inner] == 1 and not isinstance(values[inner], bool) else None
    return None


# (qualified function, method) -> where `dim` goes among the positional arguments of
# each form: the function form takes the input first, `topk` takes `k` before `dim`.
_SORTS = {"sort": (1, 0), "topk": (2, 1)}


def sorted_indices_axis(node: cst.BaseExpression, qualify: Any) -> Optional[int]:
    """The axis along which the indices a sort or top-k call returns (its second
    result) hold no value twice: ``torch.topk(x, k)``, ``x.topk(k, dim=1)``,
    ``torch.sort(x, dim)``, ``x.sort()`` (``dim`` defaults to -1). None for any other
    expression, or a ``dim`` that is not a literal."""
    if not isinstance(node, cst.Call):
        return None
    qualified = qualify(node.func) or ""
    for name, (function_at, method_at) in _SORTS.items():
        if qualified == f"torch.{name}":
            return _axis(node, function_at)
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == name and not qualified.startswith(
            ("numpy.", "np.", "torch.")
        ):
            return _axis(node, method_at)
    return None


def _keeps_reduced_dim(node: cst.Call, dim: int) -> bool:
    """A reduction along ``dim`` with ``keepdim=True`` (``mask.sum(-1, keepdim=True)``,
    ``scores.argmax(dim=1, keepdim=True)``): width 1 along that axis."""
    keep = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "keepdim"), None)
    if keep is None or _literal(keep) is not True:
        return False
    axis = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "dim"), None)
    if axis is None:
        positional = [a.value for a in node.args if a.keyword is None]
        axis = positional[0] if positional else None
    return axis is not None and _literal(axis) == dim


# The axes a gather's index is looked at along (``width1:<dim>`` kinds of a bound name).
_GATHER_AXES = (-1, 1, 0, 2)
# What a module's methods give to iterate over: its parameters, buffers and submodules.
_MODULE_MEMBERS = frozenset({
    "parameters", "named_parameters", "buffers", "named_buffers", "modules", "named_modules", "children",
    "named_children",
})


def _over_module_members(loop: cst.For) -> bool:
    """A loop over a module's members (``for p in model.parameters():``) or a ``zip``
    (which may pair them)."""
    return any(
        type(node) is cst.Call and (
            (type(node.func) is cst.Attribute and node.func.attr.value in _MODULE_MEMBERS)
            or (type(node.func) is cst.Name and node.func.value == "zip")
        )
        for node in descendants(loop.iter)
    )


# A torch DataLoader's class (its batches come through `enumerate`, `iter` and the
# progress bars of listing_order.PROGRESS_BARS too).
_LOADER_CLASSES = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})

# Device names of accelerators other than CUDA, as a device string or `.type` holds them.
_OTHER_DEVICES = ("mps", "xla", "tpu", "xpu", "npu", "hpu", "cpu")
# Calls that hold on a machine whose tensors live on another accelerator than CUDA.
_OTHER_AVAILABLE = frozenset({
    "torch.backends.mps.is_available", "torch.mps.is_available", "torch.xpu.is_available",
})


def _moved_to_cpu(node: cst.BaseExpression) -> bool:
    """``x.cpu()`` or ``x.to("cpu")``: a tensor moved to the CPU where it is passed."""
    if type(node) is not cst.Call or type(node.func) is not cst.Attribute:  # type: ignore[attr-defined]
        return False
    method = node.func.attr.value  # type: ignore[attr-defined]
    if method == "cpu":
        return not node.args  # type: ignore[attr-defined]
    return method == "to" and len(node.args) >= 1 and _device_literal(node.args[0].value) == "cpu"  # type: ignore[attr-defined]


def _device_literal(node: cst.BaseExpression) -> Optional[str]:
    """The device a literal names (``"mps"``, ``"cuda:0"`` -> "cuda"), else None."""
    value = _literal(node)
    return value.split(":", 1)[0].lower() if isinstance(value, str) and value != UNKNOWN else None


_ADAPTIVE_AVG_POOLS = frozenset({
    "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d",
})


def _one_axis_pad(node: Optional[cst.BaseExpression]) -> bool:
    """``F.pad``'s ``pad`` written as a pair (``(3, 3)``, ``[p, p]``): it pads the last axis
    only (torch takes a pair for a non-constant mode only on a 2-D or 3-D input)."""
    return isinstance(node, (cst.Tuple, cst.List)) and len(node.elements) == 2 and not any(
        isinstance(e, cst.StarredElement) for e in node.elements
    )


def _all_ones(node: cst.BaseExpression) -> bool:
    """``1``, or a tuple/list of literal ``1``s (``None`` keeps an input size: not a mean)."""
    if isinstance(node, (cst.Tuple, cst.List)):
        return bool(node.elements) and all(
            not isinstance(e, cst.StarredElement) and _literal(e.value) == 1 for e in node.elements
        )
    value = _literal(node)
    return value == 1 and not isinstance(value, bool)


class OpUsageFacts:
    """The op facts of the fact collector (mixed into it through ``UsageMixin``).

    Uses the collector's state helpers (``_u_emit``, ``_u_states``) and the per-module
    state ``UsageMixin._u_init`` and ``visit_Module`` set up; the collector's ``usage_call``
    calls :meth:`_u_op`, :meth:`_u_loss_call` and :meth:`_u_not_a_tensor`, and
    ``usage_assign`` calls :meth:`_u_bind_tensor`, :meth:`_u_fresh_constant`,
    :meth:`_u_unique_index` and :meth:`_u_torch_op_on`.
    """

    # Provided by the collector.
    scope: Any
    scopes: list[Any]
    uses: set[str]
    # Per-module state (``UsageMixin._u_init``, ``visit_Module``).
    _u_module: cst.Module
    _u_taped: Optional[set[int]]
    _u_taping: set[Optional[str]]
    _u_node_functions: Optional[dict[int, str]]
    _u_bound_qn: dict[tuple[int, str], str]
    _u_buffers: dict[str, set[str]]
    _u_buffer_aliases: set[tuple[int, str]]
    _u_squeezed: dict[int, Any]
    _u_to_numpy: dict[int, bool]
    _u_tensor_kinds: dict[tuple[int, str], frozenset[str]]
    _u_loss_modules: dict[tuple[Any, str], tuple[str, tuple[Any, ...], tuple[tuple[str, Any], ...]]]
    _u_params: dict[str, set[str]]
    _u_int_attrs: dict[str, set[str]]
    _u_written: set[int]
    _u_shadow: dict[int, dict[str, frozenset[str]]]
    _u_at: int

    def _u_op(self, node: cst.Call, name: str) -> None:
        from reprolint.analysis.determinism import op_names

        if name not in op_names():
            return
        args, kwargs = self._u_op_arguments(node)
        self._u_emit(OpCall, name, node, args=args, kwargs=kwargs, splat=any(a.star for a in node.args),
                     facts=self._u_op_facts(node, name), layer=self._u_layer_targets.get(id(node), ()))  # type: ignore[attr-defined]

    def _u_op_arguments(self, node: cst.Call) -> tuple[tuple[Any, ...], tuple[tuple[str, Any], ...]]:
        """The positional and keyword argument values of an op call (see :meth:`_u_op_value`)."""
        args = tuple(self._u_op_value(a.value) for a in node.args if a.keyword is None and not a.star)
        kwargs = tuple(
            (a.keyword.value, self._u_op_value(a.value)) for a in node.args if a.keyword is not None
        )
        return args, kwargs

    def _u_op_value(self, node: cst.BaseExpression) -> Any:
        """An op argument's literal; a name that is a parameter of the enclosing function
        with a literal default (``def up(x, mode="bicubic"): F.interpolate(x, mode=mode)``)
        or a module constant gives that value: what runs when callers leave it alone; an
        option (``args.mode``), or an attribute the constructor stores (``self.mode``),
        gives an :class:`OptionRef` the rules resolve per program."""

        value = _literal(node)
        if value == UNKNOWN and isinstance(node, cst.Name):
            tree = self.value_tree(node)  # type: ignore[attr-defined]
            if tree[0] == "const":
                return tree[1]
        if value == UNKNOWN and isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) \
                and node.value.value == "self" and (tree := self.value_tree(node))[0] == "selfattr":  # type: ignore[attr-defined]
            # ``mode=self.mode`` in a method: what the constructor calls pass for the
            # parameter ``__init__`` stores there, decided per program (Program.stored_attr)
            return OptionRef(tree)
        if value == UNKNOWN and isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) \
                and node.value.value not in ("self", "cls"):
            # ``mode=args.upsample``: the option's default, decided per program
            return OptionRef(node.attr.value)
        if value == UNKNOWN and (key := config_key(node)) is not None:
            return OptionRef(key)  # ``cfg["device"]``: the configuration's value
        return value

    def _u_tapes(self) -> set[int]:
        """Calls written inside ``with tf.GradientTape() ...:`` blocks of this module (the
        functions that hold such blocks: ``_u_taping``)."""
        if self._u_taped is None:
            taped: set[int] = set()
            self._u_taping = set()
            functions: Optional[dict[int, str]] = None
            for node in descendants(self._u_module):
                if isinstance(node, cst.With) and any(
                    isinstance(item.item, cst.Call) and self.text(item.item.func).endswith("GradientTape")  # type: ignore[attr-defined]
                    for item in node.items
                ):
                    taped.update(id(n) for n in descendants(node.body) if isinstance(n, cst.Call))
                    functions = functions if functions is not None else node_functions(self._u_module)
                    self._u_taping.add(functions.get(id(node)))
            self._u_taped = taped
        return self._u_taped

    def _u_untaped(self, node: cst.Call) -> bool:
        """A call outside the ``GradientTape`` blocks of a module (its top level) or of a
        function that takes its gradients in such blocks (a custom ``train_step``): the
        tapes record no gradient of it (``tf.image.resize`` of the input, before the tape)."""
        taped = self._u_tapes()
        if not taped or id(node) in taped:
            return False
        if self.scope is self.scopes[0]:  # type: ignore[attr-defined]
            return True
        if self._u_node_functions is None:
            self._u_node_functions = node_functions(self._u_module)
        function = self._u_node_functions.get(id(node))
        return function is not None and function in self._u_taping

    def _u_on_cpu(self, node: cst.BaseExpression) -> bool:
        """A tensor visibly on the CPU: a factory called without ``device=`` in a module
        that sets no default device, ``x.cpu()``/``x.data.cpu()``, through reshapes, or a
        name bound to one (``proj = torch.zeros(n, k)`` then ``proj.view(-1).index_add_``:
        the CPU kernel, which adds in order)."""
        while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in _CPU_KEEPING:
            node = node.func.value
        if isinstance(node, cst.Name):
            return ON_CPU in self._u_bound_kinds(node.value)
        if not isinstance(node, cst.Call) or self.default_device_possible:  # type: ignore[attr-defined]
            return False
        if _moved_to_cpu(node):
            return True
        qn = self.qualify(node.func) or ""  # type: ignore[attr-defined]
        return qn in _FACTORIES and not any(a.keyword is not None and a.keyword.value == "device" or a.star for a in node.args)

    def u_no_grad_argument(self, node: cst.BaseExpression) -> bool:
        """A call argument through which no gradient can flow: a registered buffer of
        this class (``extract(self.alphas_cumprod, t, x.shape)``), a tensor a factory
        just made, or one visibly detached (see ``no_grad_kind``)."""
        from reprolint.analysis.tensor_facts import no_grad_kind

        return self._u_buffer(node) or self._u_fresh_constant(node) or no_grad_kind(node, self.qualify, self._u_bound_kinds)  # type: ignore[attr-defined]

    def _u_buffer(self, node: cst.BaseExpression) -> bool:
        """``self.<attr>`` registered as a buffer of this class, or a plain tensor
        attribute of it (see :meth:`u_plain_tensors`)."""
        attr = self_attr(node)
        cls = self.current_class() or ""  # type: ignore[attr-defined]
        return attr is not None and (attr in self._u_buffers.get(cls, set()) or attr in self._u_plain.get(cls, ()))

    def u_plain_tensors(self, cls: str, node: cst.ClassDef) -> None:
        """The ``self`` attributes of class ``cls`` that hold a tensor no gradient reaches:
        every assignment to one in the class's methods is a factory's new tensor without
        ``requires_grad`` (``self.prob = torch.zeros(K)``, ``torch.LongTensor([0] * K)``)
        or a device or dtype move of itself (``self.prob = self.prob.cuda()``), and its
        elements are written (``self.prob[k] = v``) only while ``__init__`` builds it or
        with values visibly without grad. Like a buffer, it is no parameter: an op on it
        (an alias table's ``index_select``) has no backward pass."""
        from reprolint.analysis.tensor_facts import no_grad_kind

        assigned: dict[str, bool] = {}  # attr -> every assignment keeps it a plain tensor
        for method in node.body.body:
            if type(method) is not cst.FunctionDef:
                continue
            init = method.name.value == "__init__"
            for child in descendants(method.body):
                if type(child) is cst.Assign:
                    targets = [t.target for t in child.targets]
                elif type(child) is cst.AugAssign or type(child) is cst.AnnAssign:
                    targets = [child.target]  # type: ignore[attr-defined]
                else:
                    continue
                value = getattr(child, "value", None)
                for target in targets:
                    attr = self_attr(target)
                    if attr is not None and type(child) is cst.Assign:
                        assigned[attr] = assigned.get(attr, True) and value is not None and (
                            self._u_new_plain_tensor(value) or self_attr(moved_from(value)) == attr
                        )
                    elif attr is not None:
                        assigned[attr] = False
                    elif type(target) is cst.Subscript and self_attr(target.value) is not None:
                        written = self_attr(target.value)
                        if not init and not (value is not None and (
                            no_grad_kind(value, self.qualify, lambda _name: frozenset())  # type: ignore[attr-defined]
                            or self._u_new_plain_tensor(value)
                        )):
                            assigned[str(written)] = False
        plain = frozenset(attr for attr, kept in assigned.items() if kept)
        if plain:
            self._u_plain[cls] = plain

    def _u_new_plain_tensor(self, value: cst.BaseExpression) -> bool:
        """A factory's new tensor without ``requires_grad`` (``torch.zeros(K)``), or a legacy
        typed constructor given sizes or a list (``torch.LongTensor([0] * K)``)."""
        if self._u_fresh_constant(value):
            return True
        if type(value) is not cst.Call:
            return False
        qn = self.qualify(value.func) or ""  # type: ignore[attr-defined]
        return qn in _LEGACY_CONSTRUCTORS and all(
            a.keyword is None and type(a.value) in (cst.List, cst.Integer, cst.BinaryOperation) for a in value.args
        )

    def u_buffer_alias(self, name: str, value: cst.BaseExpression) -> None:
        """``register_buffer = lambda name, val: self.register_buffer(name, val.float())``:
        calls of that local register the buffers they name (see ``usage.py``)."""
        if not isinstance(value, cst.Lambda) or not value.params.params or not isinstance(value.body, cst.Call):
            self._u_buffer_aliases.discard((id(self.scope), name))
            return
        body = value.body
        first = body.args[0].value if body.args and body.args[0].keyword is None else None
        if isinstance(body.func, cst.Attribute) and body.func.attr.value == "register_buffer" \
                and isinstance(body.func.value, cst.Name) and body.func.value.value == "self" \
                and isinstance(first, cst.Name) and first.value == value.params.params[0].name.value:
            self._u_buffer_aliases.add((id(self.scope), name))

    def _u_fresh_constant(self, node: cst.BaseExpression) -> bool:
        """A tensor a factory just made (``torch.arange(n).unsqueeze(0)``): it requires no
        grad unless ``requires_grad=True`` is passed, so no gradient flows into it."""
        while (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in _SHAPE_METHODS) \
                or isinstance(node, cst.Subscript):
            node = node.func.value if isinstance(node, cst.Call) else node.value  # `torch.Tensor(a)[None, None]`
        if isinstance(node, cst.Name):
            return any(node.value in state.fresh_tensors for state in self._u_states())
        if not isinstance(node, cst.Call):
            return False
        qn = self.qualify(node.func) or ""  # type: ignore[attr-defined]
        return qn in _FACTORIES and not any(
            a.keyword is not None and a.keyword.value == "requires_grad" for a in node.args
        )

    def _u_unique_index(self, node: cst.BaseExpression) -> bool:
        """An index tensor that visibly holds no value twice: ``m.nonzero()`` /
        ``torch.nonzero(m)`` / ``torch.argwhere(m)`` (then squeezed or flattened to the 1-D
        index ``index_add_`` requires, which makes it the nonzero of a 1-D mask: each
        position once), ``torch.unique(...)``, ``torch.arange(...)``, ``torch.randperm(...)``,
        through casts and reshapes and the old ``Variable(...)`` wrapper, or a name bound to
        one in this scope. Not the tuple form
        ``nonzero(as_tuple=True)[0]``/``torch.where(m)[0]``: the row indices of a 2-D mask
        repeat."""
        while isinstance(node, cst.Call):
            if isinstance(node.func, cst.Attribute) and node.func.attr.value in _SAME_VALUES:
                node = node.func.value
            elif (self.qualify(node.func) or "") in _VARIABLES and len(node.args) == 1 and not node.args[0].star:  # type: ignore[attr-defined]
                node = node.args[0].value  # `Variable(idx)`: the same tensor (torch 0.4 on)
            else:
                break
        if isinstance(node, cst.Name):
            return any(node.value in state.unique_indices for state in self._u_states())
        if not isinstance(node, cst.Call):
            return False
        if any(a.keyword is not None and a.keyword.value == "as_tuple" and self.text(a.value) != "False"  # type: ignore[attr-defined]
               for a in node.args):
            return False
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in ("nonzero", "argwhere", "unique"):
            qn = self.qualify(node.func) or ""  # type: ignore[attr-defined]
            return qn in _UNIQUE_INDEX or not qn.startswith(("numpy.", "np."))
        return (self.qualify(node.func) or "") in _UNIQUE_INDEX  # type: ignore[attr-defined]

    def _u_torch_op_on(self, value: cst.BaseExpression, name: str) -> bool:
        """``torch.op(x, ...)`` (maybe followed by methods): computed from ``x`` by torch
        functions alone, so it needs no grad when ``x`` needs none (and the walk of this
        value still reads the old ``x``). A module call (``model(x)``) is not one."""
        node = value
        while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Call):
            node = node.func.value
        if not isinstance(node, cst.Call):
            return False
        qn = self.qualify(node.func) or ""  # type: ignore[attr-defined]
        return qn.startswith("torch.") and not qn.startswith("torch.nn.") and mentions_of(node, name)

    def _u_not_a_tensor(self, receiver: cst.BaseExpression) -> bool:
        """The receiver of ``x.gather(...)`` is no tensor: ``self`` (a module's own method),
        or a name bound to an object made by a call outside torch
        (``accelerator = Accelerator()``: ``accelerator.gather`` is a collective)."""
        if not isinstance(receiver, cst.Name):
            return False
        if receiver.value == "self":
            return True
        for scope in (self.scope, self.scopes[0]):
            qn = self._u_bound_qn.get((id(scope), receiver.value))
            if qn is not None:
                return not qn.startswith("torch")
        return False

    def _u_viewed_parameter(self, node: cst.BaseExpression) -> Optional[str]:
        """The parameter of the enclosing function that ``node`` is, or is a view of
        through slicing and shape methods (``x[:, 1:]``, ``.reshape(...)``, ``.permute(...)``,
        ``.float()``), also through a name bound to one here (its ``param-view`` kind)."""
        from reprolint.analysis.tensor_facts import KEEPS_NO_GRAD

        from reprolint.analysis.tensor_facts import no_grad_kind

        while True:
            kind = type(node)
            if kind is cst.Subscript:
                node = node.value  # type: ignore[attr-defined]
            elif kind is cst.Call and type(node.func) is cst.Attribute \
                    and node.func.attr.value in KEEPS_NO_GRAD and self.qualify(node.func) is None:  # type: ignore[attr-defined]
                node = node.func.value  # type: ignore[attr-defined]
            elif kind is cst.UnaryOperation and type(node.operator) is cst.Minus:  # type: ignore[attr-defined]
                node = node.expression  # type: ignore[attr-defined]
            elif kind is cst.BinaryOperation and type(node.operator).__name__ in _ARITHMETIC:  # type: ignore[attr-defined]
                # `input * positive` with `positive = (input > 0).float()`: a gradient flows
                # through the one side that may carry one (the other is a constant or a
                # tensor without grad)
                sides = [node.left, node.right]  # type: ignore[attr-defined]
                free = [
                    side for side in sides
                    if _literal(side) is not UNKNOWN and isinstance(_literal(side), (int, float))
                    or no_grad_kind(side, self.qualify, self._u_bound_kinds)  # type: ignore[attr-defined]
                ]
                if len(free) != 1:
                    return None
                node = sides[1] if free[0] is sides[0] else sides[0]
            else:
                break
        if type(node) is not cst.Name:
            return None
        if self.holds_parameter(node.value, node):  # type: ignore[attr-defined]
            return node.value  # type: ignore[no-any-return]
        for kind in self._u_bound_kinds(node.value):
            if kind.startswith(PARAM_VIEW):
                return kind[len(PARAM_VIEW):]
        return None

    def _u_bound_kinds(self, name: str) -> frozenset[str]:
        """What the source showed of the tensor last bound to ``name`` here or at module level
        (as it was before the assignment whose value holds the op node ``self._u_at``)."""
        shadowed = self._u_shadow.get(self._u_at)
        if shadowed is not None and name in shadowed:
            return shadowed[name]
        for scope in (self.scope, self.scopes[0]):
            kinds = self._u_tensor_kinds.get((id(scope), name))
            if kinds is not None:
                return kinds
        return frozenset()

    def _u_bind_tensor(self, targets: list[cst.BaseExpression], value: cst.BaseExpression) -> None:
        """Record what the op facts need about assigned names: the shape/dtype kinds of
        the value (``logits = x.transpose(1, 2)``), and loss modules bound to a name or a
        ``self`` attribute (``self.criterion = nn.CrossEntropyLoss()``). An op inside the
        value reads the names as they were before the assignment (``x = F.interpolate(x,
        ...)``): the old kinds of a rebound name are kept for the calls and subscripts of
        the value (see :meth:`_u_bound_kinds`)."""
        from reprolint.analysis.tensor_facts import PARAMETER, PY_INT, expression_kinds

        self._u_at = 0  # the names as they are now, not as an op inside an earlier value saw them
        kinds = expression_kinds(value, self.qualify, self._u_bound_kinds)  # type: ignore[attr-defined]
        if isinstance(value, (cst.Call, cst.Subscript, cst.BinaryOperation, cst.Attribute)):
            # `idx = (mask.sum(-1, keepdim=True) - 1).long()`: a gather index of width 1 later
            widths = [f"width1:{axis}" for axis in _GATHER_AXES if _width_one(value, axis, self._u_bound_kinds)]  # type: ignore[attr-defined]
            if widths:
                kinds = kinds | frozenset(widths)
            distinct = distinct_axis(value, self.qualify, self._u_bound_kinds)  # type: ignore[attr-defined]
            if distinct is not None:
                kinds = kinds | {f"distinct:{distinct}"}
        if self.scope.kind == "function":  # type: ignore[attr-defined]
            viewed = self._u_viewed_parameter(value)
            if viewed is not None:
                kinds = kinds | {PARAM_VIEW + viewed}  # `tokens = pos_embed[:, 1:]`
        if self._u_python_int(value):
            kinds = kinds | {PY_INT}
        if self._u_on_cpu(value):
            kinds = kinds | {ON_CPU}
        loss = self.qualify(value.func) if isinstance(value, cst.Call) else None  # type: ignore[attr-defined]
        for target in targets:
            if isinstance(target, (cst.Tuple, cst.List)):
                self._u_bind_unpacked(target, value)
                continue
            if isinstance(target, cst.Subscript):
                self._u_written.add(id(target))
            attr = self_attr(target)
            if attr is not None and self.current_class() is not None:  # type: ignore[attr-defined]
                for held, kind in ((self._u_params, PARAMETER), (self._u_int_attrs, PY_INT)):
                    attrs = held.setdefault(self.current_class(), set())  # type: ignore[attr-defined]
                    if kind in kinds:
                        attrs.add(attr)
                    else:
                        attrs.discard(attr)
            if isinstance(target, cst.Name):
                self.u_buffer_alias(target.value, value)
                old = self._u_bound_kinds(target.value)
                if old and mentions_of(value, target.value):
                    for inner in descendants(value):
                        if isinstance(inner, (cst.Call, cst.Subscript)):
                            self._u_shadow.setdefault(id(inner), {})[target.value] = old
                self._u_tensor_kinds[(id(self.scope), target.value)] = kinds
                key: tuple[Any, str] = (id(self.scope), target.value)
            elif attr is not None and self.current_class() is not None:  # type: ignore[attr-defined]
                key = (self.current_class(), attr)  # type: ignore[attr-defined]
            else:
                continue
            if loss in _LOSS_MODULES and isinstance(value, cst.Call):
                self._u_loss_modules[key] = (loss, *self._u_op_arguments(value))
            else:
                self._u_loss_modules.pop(key, None)

    def u_bind_loop_targets(self, loop: cst.For) -> None:
        """``for x, y in loader:`` (through ``enumerate``, ``iter`` or ``tqdm``) over a
        torch ``DataLoader``, or any loop whose body takes a training step (calls
        ``backward``) over anything but a module's parameters or submodules: each item is
        a batch of data, a tensor that requires no grad, so an op on it (or on what a
        function is given of it) runs no backward. Any other loop target holds nothing
        the source shows: kinds an earlier binding of the name gave are dropped."""
        from reprolint.analysis.tensor_facts import NO_GRAD

        batches = self._u_loader_batches(loop.iter) or (
            # a loop whose body calls `backward` (`loss.backward()`, `scaler.scale(loss)
            # .backward()`, `accelerator.backward(loss)`): usage._u_note_loop_hooks
            id(loop) in self._u_training_loops and not _over_module_members(loop)  # type: ignore[attr-defined]
        )
        kinds = frozenset({NO_GRAD}) if batches else frozenset()
        for node in descendants(loop.target) if not isinstance(loop.target, cst.Name) else (loop.target,):
            if type(node) is cst.Name:
                self._u_tensor_kinds[(id(self.scope), node.value)] = kinds  # type: ignore[attr-defined]

    def _u_loader_batches(self, node: cst.BaseExpression) -> bool:
        """Whether iterating ``node`` gives a torch ``DataLoader``'s batches: the loader
        made in place or bound to a name here or at module level, as wrapped by
        ``enumerate``/``iter``/``tqdm`` (``enumerate`` pairs a counter with each batch)."""
        while type(node) is cst.Call and node.args and node.args[0].keyword is None and not node.args[0].star:
            wrapper = self.qualify(node.func) or ""  # type: ignore[attr-defined]
            if wrapper in _LOADER_CLASSES:
                return True
            builtin = type(node.func) is cst.Name and node.func.value in ("enumerate", "iter") \
                and self._builtin_call(node, node.func.value)  # type: ignore[attr-defined]
            if not builtin and wrapper not in PROGRESS_BARS:
                return False
            node = node.args[0].value
        if type(node) is cst.Name:
            made = self._u_bound_qn.get((id(self.scope), node.value)) or self._u_bound_qn.get(  # type: ignore[attr-defined]
                (id(self.scopes[0]), node.value), "")  # type: ignore[attr-defined]
            return made in _LOADER_CLASSES
        return False

    def _u_bind_unpacked(self, target: Union[cst.Tuple, cst.List], value: cst.BaseExpression) -> None:
        """``values, idx = torch.topk(scores, k)``: the second name holds indices that
        repeat no value along the sort's axis (``distinct:<axis>``); any other name an
        unpacking binds holds nothing the source shows (its earlier kinds are dropped)."""
        if isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(target.elements) and not any(
            isinstance(e, cst.StarredElement) for e in (*value.elements, *target.elements)
        ):
            # `image, mask = image.flip(-1), mask.flip(-1)`: each name as if bound alone
            # (unless a value reads another target's name, as a swap does)
            pairs = list(zip(target.elements, value.elements))
            names = [t.value.value if isinstance(t.value, cst.Name) else None for t, _ in pairs]
            if all(not any(mentions_of(v.value, n) for n in names if n is not None and n != names[i])
                   for i, (_, v) in enumerate(pairs)):
                for t, v in pairs:
                    self._u_bind_tensor([t.value], v.value)
                return
        axis = sorted_indices_axis(value, self.qualify)  # type: ignore[attr-defined]
        for at, element in enumerate(target.elements):
            if isinstance(element.value, cst.Name):
                held = frozenset({f"distinct:{axis}"}) if axis is not None and at == 1 and len(target.elements) == 2 \
                    else frozenset()
                self._u_tensor_kinds[(id(self.scope), element.value.value)] = held

    def _u_bind_parameters(self, params: cst.Parameters) -> None:
        """A function's parameters in its scope: one annotated ``int`` or defaulting to an
        integer literal holds a Python int (``def repeat_kv(x, n_rep: int)``); the others
        hold nothing the source shows yet."""
        from reprolint.analysis.tensor_facts import PY_INT

        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            annotation = param.annotation.annotation if param.annotation is not None else None
            default = param.default
            held = (type(annotation) is cst.Name and annotation.value == "int") or (
                annotation is None and type(default) is cst.Integer
            )
            self._u_tensor_kinds[(id(self.scope), param.name.value)] = frozenset({PY_INT}) if held else frozenset()

    def visit_Subscript(self, node: cst.Subscript) -> None:
        self._u_parameter_index(node)
        super().visit_Subscript(node)

    def _u_parameter_index(self, node: cst.Subscript) -> None:
        """``table[idx]`` read from a parameter (``self.table`` bound to ``nn.Parameter``,
        a module's ``.weight``, a name bound to ``nn.Parameter``/a factory with
        ``requires_grad=True``) with an integer tensor index: its backward accumulates
        the gradient with ``index_put_(accumulate=True)``. Recorded as an op call of
        ``Tensor.__getitem__`` with the facts "index-is-tensor-list" and
        "parameter-input" (the catalog entry's runtime condition, seen in the source)."""
        from reprolint.analysis.tensor_facts import PARAMETER, index_tensor

        if "torch" not in self.uses or id(node) in self._u_written:
            return
        self._u_at = id(node)
        base = node.value
        attr = self_attr(base)
        if attr is not None:
            parameter = attr in self._u_params.get(self.current_class() or "", set())  # type: ignore[attr-defined]
        elif isinstance(base, cst.Attribute):
            parameter = base.attr.value == "weight" and self.qualify(base) is None  # type: ignore[attr-defined]
        elif isinstance(base, cst.Name):
            parameter = PARAMETER in self._u_bound_kinds(base.value)
        else:
            parameter = False
        if not parameter:
            return
        indices = [e.slice.value for e in node.slice if isinstance(e.slice, cst.Index)]
        if not any(
            index_tensor(i, self.qualify, self._u_bound_kinds) and not self._u_unique_index(i)  # type: ignore[attr-defined]
            for i in indices
        ):
            return
        self._u_emit(OpCall, "Tensor.__getitem__", node, facts=("index-is-tensor-list", "parameter-input"))

    def _u_spatial_loss(self, source: Optional[cst.BaseExpression], target: Optional[cst.BaseExpression]) -> bool:
        """A loss's input visibly has more than two dimensions, or its target has three or
        more (a segmentation mask (N, H, W) goes with an (N, C, H, W) input)."""
        from reprolint.analysis.tensor_facts import spatial_kind

        return any(
            node is not None and spatial_kind(node, self.qualify, self._u_bound_kinds)  # type: ignore[attr-defined]
            for node in (source, target)
        )

    def _u_loss_call(self, node: cst.Call) -> None:
        """``criterion(logits, target)`` where ``criterion`` holds an ``nn.CrossEntropyLoss``
        / ``nn.NLLLoss`` made in this scope (or ``self.criterion``, made in the class): an
        op call of that class when its input visibly has more than two dimensions (the
        constructor alone decides nothing)."""
        self._u_at = id(node)
        func = node.func
        if isinstance(func, cst.Name):
            loss = next(
                (self._u_loss_modules[k] for k in ((id(self.scope), func.value), (id(self.scopes[0]), func.value))
                 if k in self._u_loss_modules), None,
            )
        elif self_attr(func) is not None:
            loss = self._u_loss_modules.get((self.current_class(), self_attr(func)))  # type: ignore[attr-defined]
        else:
            return
        positional = [a.value for a in node.args if a.keyword is None and not a.star]
        keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        source = positional[0] if positional else keywords.get("input")
        target = positional[1] if len(positional) > 1 else keywords.get("target")
        if loss is None or not self._u_spatial_loss(source, target):
            return
        name, args, kwargs = loss
        self._u_emit(OpCall, name, node, args=args, kwargs=kwargs, facts=("spatial-input",))

    def _u_tf_variable(self, node: Optional[cst.BaseExpression]) -> bool:
        """``node`` is a name last bound, here or at module level, to a TensorFlow variable
        (``tf.Variable(...)``, ``tf.get_variable(...)``, ``tf.compat.v1.get_variable(...)``)."""
        if not isinstance(node, cst.Name):
            return False
        for scope in (self.scope, self.scopes[0]):  # type: ignore[attr-defined]
            value = self.bound_values.get((id(scope), node.value))  # type: ignore[attr-defined]
            if value is not None:
                return isinstance(value, cst.Call) and (self.qualify(value.func) or "") in _TF_VARIABLES  # type: ignore[attr-defined]
        return False

    def _u_python_int(self, node: cst.BaseExpression, depth: int = 0) -> bool:
        """``node`` is visibly a Python int, not a tensor: an integer literal, ``len(...)``
        or ``int(...)``, one of a tensor's sizes (``x.shape[-1]``, ``x.size(1)``), or integer arithmetic of them with plain reads (names or attributes
        that hold no tensor here), and a floor division of plain reads
        (``self.num_heads // self.num_kv_heads``, the grouped-query attention idiom)."""
        from reprolint.analysis.tensor_facts import PY_INT

        kind = type(node)  # type tests, not isinstance: see cst_helpers.CONCRETE
        if kind is cst.Integer:
            return True
        if kind is cst.Name:  # `n_rep: int`, `q_per_kv = n_head // n_query_groups`
            return PY_INT in self._u_bound_kinds(node.value)  # type: ignore[attr-defined]
        if kind is cst.Attribute:  # `self.n_rep = n_heads // n_kv_heads` in this class
            attr = self_attr(node)
            return attr is not None and attr in self._u_int_attrs.get(self.current_class() or "", ())  # type: ignore[attr-defined]
        if kind is cst.Call:
            func = node.func  # type: ignore[attr-defined]
            if type(func) is cst.Attribute:
                # `x.size(-1)`, `x.dim()`, `x.numel()`: a tensor's sizes are Python ints
                given = node.args  # type: ignore[attr-defined]
                return (func.attr.value == "size" and len(given) == 1 and _int_index(given[0].value)) or (
                    func.attr.value in ("dim", "ndimension", "numel", "nelement") and not given
                )
            return type(func) is cst.Name and func.value in ("len", "int") and not self.is_local(func.value)  # type: ignore[attr-defined]
        if kind is cst.Subscript:  # `x.shape[-1]`: one of a tensor's sizes
            value, slices = node.value, node.slice  # type: ignore[attr-defined]
            return type(value) is cst.Attribute and value.attr.value == "shape" and len(slices) == 1 \
                and type(slices[0].slice) is cst.Index and _int_index(slices[0].slice.value)
        if kind is not cst.BinaryOperation or depth > 4:
            return False
        operator = type(node.operator)  # type: ignore[attr-defined]
        if operator not in (cst.FloorDivide, cst.Multiply, cst.Add, cst.Subtract):
            return False
        sides = (node.left, node.right)  # type: ignore[attr-defined]
        ints = [self._u_python_int(side, depth + 1) for side in sides]
        reads = [self._u_plain_read(side) for side in sides]
        if all(ints):
            return True
        if all(i or r for i, r in zip(ints, reads)):
            return any(ints) or operator is cst.FloorDivide
        return False

    def _u_plain_read(self, node: cst.BaseExpression) -> bool:
        """A name or attribute read that holds no tensor the source shows (not a torch
        module attribute, not a name bound to a tensor here)."""
        from reprolint.analysis.tensor_facts import PY_INT

        if type(node) is cst.Name:
            return not self._u_bound_kinds(node.value) - {PY_INT}  # type: ignore[attr-defined]
        if type(node) is cst.Attribute:
            qualified = self.qualify(node) or ""  # type: ignore[attr-defined]
            return not qualified.startswith(("torch", "numpy", "tensorflow", "jax"))
        return False

    def _u_not_cuda(self, test: cst.BaseExpression, polarity: bool) -> bool:
        """A branch test that, where it holds as ``polarity``, says the device is not CUDA:
        ``device == "mps"``, ``args.device in ("cpu", "mps")``, ``torch.backends.mps.is_available()``,
        the else of ``device.type == "cuda"``, ``not torch.cuda.is_available()``."""
        if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:  # type: ignore[attr-defined]
            return self._u_not_cuda(test.expression, not polarity)  # type: ignore[attr-defined]
        if type(test) is cst.BooleanOperation:
            both = (self._u_not_cuda(test.left, polarity), self._u_not_cuda(test.right, polarity))  # type: ignore[attr-defined]
            return any(both) if (type(test.operator) is cst.And) == polarity else all(both)  # type: ignore[attr-defined]
        if type(test) is cst.Call:
            qualified = self.qualify(test.func) or ""  # type: ignore[attr-defined]
            return (polarity and qualified in _OTHER_AVAILABLE) or (
                not polarity and qualified == "torch.cuda.is_available"
            )
        if type(test) is not cst.Comparison or len(test.comparisons) != 1:  # type: ignore[attr-defined]
            return False
        comparison = test.comparisons[0]  # type: ignore[attr-defined]
        operator = type(comparison.operator)
        sides = (test.left, comparison.comparator)  # type: ignore[attr-defined]
        names = [n for n in map(_device_literal, sides) if n is not None]
        if operator is cst.In and polarity and type(comparison.comparator) in (cst.Tuple, cst.List, cst.Set):
            names = [_device_literal(e.value) for e in comparison.comparator.elements]
            return bool(names) and all(n in _OTHER_DEVICES for n in names)
        if len(names) != 1:
            return False
        if operator is cst.Equal:
            return names[0] in _OTHER_DEVICES if polarity else names[0] == "cuda"
        if operator is cst.NotEqual:
            return names[0] == "cuda" if polarity else names[0] in _OTHER_DEVICES
        return False

    def _u_applied_without_grad(self, node: cst.Call) -> bool:
        """A module built into a local name of a function (``up = nn.Upsample(...)``,
        ``.to(device)`` chained or not) that the function (its nested functions included)
        uses only by calling it inside ``with torch.no_grad():`` (or
        ``torch.inference_mode()``): no backward of it runs."""
        from reprolint.analysis.calls.devices import no_grad_context

        body = self.scope.body if self.scope.kind == "function" else None
        if body is None:
            return False
        name = None
        for n in descendants(body):
            if type(n) is cst.Assign and len(n.targets) == 1 and type(n.targets[0].target) is cst.Name:
                value = n.value
                while type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value in CHAINED_MODULE:
                    value = value.func.value
                if value is node:
                    name = n.targets[0].target.value
                    break
        if name is None:
            return False
        calls = 0
        stack: list[tuple[cst.CSTNode, bool]] = [(body, False)]
        while stack:
            current, quiet = stack.pop()
            kind = type(current)
            if kind is cst.With and any(no_grad_context(item.item, self.qualify) for item in current.items):  # type: ignore[attr-defined]
                stack.extend((child, True) for child in children(current))
                continue
            if kind is cst.Call and type(current.func) is cst.Name and current.func.value == name:  # type: ignore[attr-defined]
                if not quiet:
                    return False
                calls += 1
                stack.extend((a, quiet) for a in current.args)  # type: ignore[attr-defined]
                continue
            if kind is cst.AssignTarget and type(current.target) is cst.Name:  # type: ignore[attr-defined]
                continue
            if kind is cst.Name and current.value == name:  # type: ignore[attr-defined]
                return False  # handed on, stored or read otherwise: another caller may train it
            stack.extend((child, quiet) for child in children(current))
        return calls > 0

    def _u_op_facts(self, node: cst.Call, name: str) -> tuple[str, ...]:
        """See :attr:`OpCall.facts`."""
        from reprolint.analysis.tensor_facts import BOOL, bool_kind, integer_kind, no_grad_kind, tf_mask_coordinates

        self._u_at = id(node)

        facts: list[str] = []
        if any(self._u_not_cuda(test, polarity) for _, polarity, test in self.conds):  # type: ignore[attr-defined]
            facts.append("not-cuda-branch")  # `if device == "mps":`: another device's tensors
        method = name.startswith("Tensor.")
        positional = [a.value for a in node.args if a.keyword is None and not a.star]
        keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        offset = 0 if method else 1
        source = node.func.value if method and isinstance(node.func, cst.Attribute) else (  # type: ignore[union-attr]
            positional[0] if positional else keywords.get("input")
        )
        if name.startswith(("tensorflow.", "keras.")) and self._u_untaped(node):
            # code of an eager program (its top level, or a function) that takes gradients in
            # GradientTape blocks, outside them: no gradient of this call is ever computed
            facts.append("no-grad-input")
        if type(node) is cst.Call and self._u_shown(node):  # type: ignore[attr-defined]
            facts.append("shown-only")  # its value only reaches a figure (shown_only)
        if self.cpu_pinned and name.startswith(("tensorflow.", "keras.")):  # type: ignore[attr-defined]
            facts.append("cpu-device")  # created under `with tf.device("/cpu:0"):`
        if name.startswith(("torch.", "Tensor.")) and (any(
            _moved_to_cpu(value) for value in (source, *positional, *keywords.values()) if value is not None
        ) or (source is not None and method and self._u_on_cpu(source))):
            facts.append("cpu-tensor")  # `features.index_copy_(0, index.cpu(), rows.cpu())`
        if name.startswith(("torch.", "Tensor.")) and self.scope.kind == "function" \
                and only_detached(self.scope.body, node):  # type: ignore[attr-defined]
            facts.append("no-grad-output")  # its value reaches only detached values: no gradient comes back
        if id(node) in self._u_to_numpy:  # type: ignore[attr-defined]
            # `F.interpolate(x, ...)[0].numpy()`: `.numpy()` raises on a tensor that needs grad
            facts += ["cpu-tensor", "no-grad-input"] if self._u_to_numpy[id(node)] else ["no-grad-input"]  # type: ignore[attr-defined]
        if id(node) in self._u_per_sample:  # type: ignore[attr-defined]
            facts += ["cpu-tensor", "no-grad-input"]  # in a sample transform (`transforms.Lambda`)
        if source is not None and (
            self._u_fresh_constant(source) or no_grad_kind(source, self.qualify, self._u_bound_kinds)  # type: ignore[attr-defined]
        ):
            facts.append("no-grad-input")
        buffer = source is not None and self._u_buffer(source)
        if buffer:
            facts.append("no-grad-input")
        elif name.startswith("torch.nn.") and name[9:10].isupper() and self._u_applied_without_grad(node):
            facts.append("no-grad-input")  # `up = nn.Upsample(...)`, called only under `torch.no_grad()`
        elif source is not None and (param := self._u_viewed_parameter(source)) is not None:
            # a parameter as passed (`def extract(a, t, shape): a.gather(-1, t)`), or a view
            # of one (`tokens = pos_embed[:, 1:].reshape(...)`): whether a gradient flows is
            # what the calls that run the function pass (NO_GRAD_ARGUMENT)
            facts.append(f"param-input:{self.scope.name}{param}")  # type: ignore[attr-defined]
        if name.endswith(("index_add", "index_add_", "index_select", "index_copy", "index_copy_")):
            index = positional[offset + 1] if len(positional) > offset + 1 else keywords.get("index")
            if index is not None and self._u_unique_index(index):
                facts.append("index-unique")
            elif name.endswith("index_copy_") and buffer and type(index) is cst.Name and index.value in self.scope.params:  # type: ignore[attr-defined]
                # a registered buffer written in place at the positions its caller passes
                # (`self.k.index_copy_(2, input_pos, k)`): a key/value cache, which writes
                # each position of a step once; positions computed here (`pos % window`)
                # may repeat
                facts.append("index-unique")
        if name in _TF_SCATTER_ND:
            # `tf.scatter_nd(tf.where(mask), updates, shape)`: the coordinates of a mask's
            # true elements, each once, so no two updates meet
            index = positional[_TF_SCATTER_ND[name]] if len(positional) > _TF_SCATTER_ND[name] else keywords.get("indices")
            if index is not None and tf_mask_coordinates(index, self.qualify, self.bound_values.get, id(self.scope)):  # type: ignore[attr-defined]
                facts.append("index-unique")
        if name in _LOSS_FUNCTIONS and self._u_spatial_loss(source, positional[1] if len(positional) > 1 else keywords.get("target")):
            facts.append("spatial-input")
        if name.endswith(("cumsum", "cumsum_")) and (
            integer_kind(node, self.qualify, self._u_bound_kinds)  # type: ignore[attr-defined]
            or (source is not None and integer_kind(source, self.qualify, self._u_bound_kinds))  # type: ignore[attr-defined]
            or (source is not None and bool_kind(source))  # `(ids == token).cumsum(-1)` counts in int64
            or (type(source) is cst.Name and BOOL in self._u_bound_kinds(source.value))  # type: ignore[union-attr]
        ):
            facts.append("integer-input")
        if name.rsplit(".", 1)[-1] in _ADAPTIVE_AVG_POOLS:
            # output size 1 on every axis: torch computes the pooling as a mean
            # (MeanBackward, deterministic), not with the adaptive pooling kernels
            module = name.rsplit(".", 1)[-1][0].isupper()
            at = 0 if module else 1
            size = positional[at] if len(positional) > at else keywords.get("output_size")
            if size is not None and _all_ones(size):
                facts.append("output-size-one")
        if name.endswith("ReflectionPad1d") or (name == "torch.nn.functional.pad" and _one_axis_pad(
            positional[1] if len(positional) > 1 else keywords.get("pad")
        )):
            # a reflection of the last axis only: each input element receives at most two
            # gradient values (its own and one mirrored), once the input is longer than
            # twice the padding plus one
            facts.append("pad-one-axis")
        if name in _MAX_POOLS_3D and _disjoint_windows(positional if name == "torch.nn.MaxPool3d" else positional[1:], keywords):
            # stride >= kernel on every axis, no dilation: each input element lies in one
            # window, so the backward's atomic adds put at most one value on it
            facts.append("windows-disjoint")
        if name.endswith("repeat_interleave"):
            repeats = positional[offset] if len(positional) > offset else keywords.get("repeats")
            value = _literal(repeats) if repeats is not None else UNKNOWN
            if (isinstance(value, int) and not isinstance(value, bool)) or (
                repeats is not None and self._u_python_int(repeats)
            ):
                facts.append("scalar-repeats")
        if name in _TF_GATHERS and self._u_tf_variable(keywords.get("params", positional[0] if positional else None)):
            # the gradient of a lookup into a variable is an IndexedSlices, summed into the
            # dense gradient by UnsortedSegmentSum (tests/libraries checks the op)
            facts.append("indexed-slices-input")
        if name.endswith(_BY_INDEX_ALONG_DIM):
            # a gather, or a scatter (`y.scatter_(1, t.unsqueeze(1), 1.0)`, one-hot labels):
            # with an index of width 1 along `dim`, each row reads or writes one element,
            # so no two writes or adds meet
            dim_node = positional[offset] if len(positional) > offset else keywords.get("dim")
            index = positional[offset + 1] if len(positional) > offset + 1 else keywords.get("index")
            dim = _literal(dim_node) if dim_node is not None else UNKNOWN
            if isinstance(dim, int) and not isinstance(dim, bool) and index is not None:
                if _width_one(index, dim, self._u_bound_kinds) or (
                    id(node) in self._u_squeezed and self._u_squeezed[id(node)] in (None, dim)
                ):
                    facts.append("index-width-1")
                elif distinct_axis(index, self.qualify, self._u_bound_kinds) == dim:  # type: ignore[attr-defined]
                    # each line of the index a permutation's part: no two writes meet
                    facts.append("index-distinct")
        return tuple(facts)
