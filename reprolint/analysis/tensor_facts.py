"""What the source shows about a tensor's shape or dtype, for the op facts.

Some catalog entries hold only for some inputs: ``nll_loss``/``cross_entropy`` raise
under deterministic mode on a *spatial* input (more than two dimensions: the 2-D
kernel accumulates with atomics), ``cumsum`` is nondeterministic on CUDA only for a
*floating-point* input. The running program knows; the source sometimes shows it too.
The functions here read one expression (and the names it was bound from) and answer
only when the text decides:

* :func:`spatial_kind` -- the expression has three or more dimensions:
  ``x.transpose(1, 2)`` (a dim >= 2 exists), ``x.permute(0, 2, 1)`` / ``view(b, c, n)``
  / ``reshape`` with three or more sizes, ``einops.rearrange(x, "b q c -> b c q")``, a
  factory given three or more sizes (``torch.randn(n, c, h, w)``).
* :func:`integer_kind` -- the expression holds integers: the counts of
  ``unique``/``unique_consecutive(return_counts=True)``, ``bincount``, ``argmax``,
  ``randint``, an integer cast (``.long()``), ``dtype=torch.long``, ``torch.tensor``
  of integer literals.

Both see through shape- and dtype-keeping methods (``.contiguous()``, ``.cuda()``,
``.detach()``) and through a name bound to such an expression earlier in the same
scope (``bound(name)`` gives the kinds recorded for it).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import libcst as cst

from reprolint.analysis.cst_helpers import find_argument, literal as _literal
from reprolint.analysis.values import UNKNOWN

__all__ = [
    "BOOL", "INTEGER", "KEEPS_NO_GRAD", "NO_GRAD", "PARAMETER", "PY_INT", "SPATIAL", "expression_kinds", "index_tensor", "integer_kind",
    "no_grad_kind", "parameter_kind", "spatial_kind",
]

SPATIAL = "spatial"
INTEGER = "integer"
BOOL = "bool"  # a mask: a comparison's result (`is_eos = ids == eos_id`)
PARAMETER = "parameter"
NO_GRAD = "no-grad"
PY_INT = "python-int"  # a Python int, no tensor (``n_rep: int``, ``h = n_head // n_kv_heads``)

Qualify = Callable[[cst.BaseExpression], Optional[str]]
Bound = Callable[[str], frozenset[str]]

# Methods that keep both the shape and the dtype of a tensor.
_KEEPS_ALL = frozenset({
    "contiguous", "cuda", "cpu", "detach", "clone", "requires_grad_", "pin_memory", "flip", "fliplr", "flipud", "roll",
})
# Methods that keep the shape (the dtype may change).
_KEEPS_SHAPE = _KEEPS_ALL | frozenset({
    "float", "half", "double", "bfloat16", "to", "type", "long", "int", "log_softmax", "softmax",
    "sigmoid", "exp", "log", "abs", "neg", "clamp", "masked_fill",
})
_SHAPE_FUNCTIONS = frozenset({
    "torch.nn.functional.log_softmax", "torch.nn.functional.softmax", "torch.log_softmax",
    "torch.softmax", "torch.sigmoid",
})
_TRANSPOSES = frozenset({"transpose", "swapaxes", "swapdims"})
_RESHAPES = frozenset({"permute", "view", "reshape"})
_FACTORIES = frozenset(
    f"torch.{n}" for n in ("randn", "rand", "zeros", "ones", "empty", "randn_like", "full")
)
_REARRANGE = frozenset({"einops.rearrange"})
# Factories whose shape is one tuple argument, by its position (``size=`` too).
_SIZE_ARGUMENT = {
    "torch.randint": 2, "numpy.random.randint": 2, "numpy.random.normal": 2, "numpy.random.uniform": 2,
    "numpy.zeros": 0, "numpy.ones": 0, "numpy.empty": 0, "numpy.full": 0,
}
# Calls that keep the shape of their first argument (an array made a tensor).
_WRAPPERS = frozenset({"torch.from_numpy", "torch.as_tensor", "torch.tensor", "numpy.asarray", "numpy.array"})

# Integer dtypes as torch spells them.
_INT_DTYPES = frozenset(
    f"torch.{n}" for n in (
        "long", "int", "int64", "int32", "int16", "int8", "uint8", "short", "bool",
        "LongTensor", "IntTensor", "cuda.LongTensor", "cuda.IntTensor",
    )
)
_FLOAT_DTYPES = frozenset(
    f"torch.{n}" for n in (
        "float", "float32", "float64", "double", "half", "float16", "bfloat16", "complex64", "complex128",
    )
)
_INT_CASTS = frozenset({"long", "int", "short", "byte", "char", "bool"})
_FLOAT_CASTS = frozenset({"float", "half", "double", "bfloat16"})
# torch functions whose result is always an integer tensor.
_INT_RESULTS = frozenset(
    f"torch.{n}" for n in ("bincount", "argmax", "argmin", "argsort", "randint", "randperm", "nonzero", "argwhere")
)
_INT_METHODS = frozenset({"argmax", "argmin", "argsort", "nonzero", "argwhere", "bincount"})
_COUNTS = frozenset({"unique", "unique_consecutive"})


def _strip(node: cst.BaseExpression, keep: frozenset[str], qualify: Qualify) -> cst.BaseExpression:
    """Through methods in ``keep`` (not module functions of the same name: ``F.softmax``)."""
    while (
        isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in keep
        and qualify(node.func) is None
    ):
        node = node.func.value
    return node


def _positional(node: cst.Call) -> list[cst.BaseExpression]:
    return [a.value for a in node.args if a.keyword is None and not a.star]


def _keyword(node: cst.Call, name: str) -> Optional[cst.BaseExpression]:
    arg = find_argument(node, name, None)
    return arg.value if arg is not None else None


def _sizes(node: cst.Call) -> int:
    """How many sizes a ``view``/``permute``/factory call is given (``view(b, c, n)`` or
    ``view((b, c, n))``); 0 when a splat hides them."""
    if any(a.star for a in node.args):
        return 0
    sizes = _positional(node)
    if len(sizes) == 1 and isinstance(sizes[0], (cst.Tuple, cst.List)):
        elements = sizes[0].elements
        return 0 if any(isinstance(e, cst.StarredElement) for e in elements) else len(elements)
    return len(sizes)


def _output_axes(pattern: str) -> int:
    """The axes on the right of an einops pattern (a parenthesised group is one)."""
    if "->" not in pattern:
        return 0
    right = pattern.split("->", 1)[1]
    axes, depth = 0, 0
    for token in right.replace("(", " ( ").replace(")", " ) ").split():
        if token == "(":
            if depth == 0:
                axes += 1
            depth += 1
        elif token == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            axes += 1
    return axes


def spatial_kind(node: cst.BaseExpression, qualify: Qualify, bound: Bound) -> bool:
    """The expression visibly has three or more dimensions (see the module doc)."""
    node = _strip(node, _KEEPS_SHAPE, qualify)
    if isinstance(node, cst.Name):
        return SPATIAL in bound(node.value)
    if isinstance(node, cst.Subscript):
        # slices keep every dimension: `logits[:, :, :n]` has at least three
        parts = node.slice
        if all(isinstance(p.slice, cst.Slice) for p in parts):
            return len(parts) >= 3 or spatial_kind(node.value, qualify, bound)
        return False
    if not isinstance(node, cst.Call):
        return False
    qn = qualify(node.func) or ""
    if qn in _SHAPE_FUNCTIONS:
        args = _positional(node)
        source = args[0] if args else _keyword(node, "input")
        return source is not None and spatial_kind(source, qualify, bound)
    if qn in _REARRANGE:
        args = _positional(node)
        pattern = _literal(args[1]) if len(args) > 1 else UNKNOWN
        return isinstance(pattern, str) and _output_axes(pattern) >= 3
    if qn in _FACTORIES:
        return _sizes(node) >= 3 and qn != "torch.full"
    if qn in _SIZE_ARGUMENT:
        size = _keyword(node, "size")
        args = _positional(node)
        if size is None and len(args) > _SIZE_ARGUMENT[qn]:
            size = args[_SIZE_ARGUMENT[qn]]
        return isinstance(size, (cst.Tuple, cst.List)) and len(size.elements) >= 3
    if qn in _WRAPPERS:
        args = _positional(node)
        return bool(args) and spatial_kind(args[0], qualify, bound)
    if qn in ("torch.transpose", "torch.swapaxes", "torch.permute"):
        args = _positional(node)
        if qn == "torch.permute":
            return len(args) == 2 and isinstance(args[1], (cst.Tuple, cst.List)) and len(args[1].elements) >= 3
        return any(_big_dim(a) for a in args[1:3])
    if not isinstance(node.func, cst.Attribute) or qn.startswith(("numpy.", "np.")):
        return False
    method = node.func.attr.value
    if method in _TRANSPOSES:
        return any(_big_dim(a) for a in _positional(node)[:2])
    if method in _RESHAPES:
        return _sizes(node) >= 3
    return False


def _big_dim(node: cst.BaseExpression) -> bool:
    """A literal dimension index of 2 or more: the tensor has at least three dims."""
    value = _literal(node)
    return isinstance(value, int) and not isinstance(value, bool) and value >= 2


def integer_kind(node: cst.BaseExpression, qualify: Qualify, bound: Bound) -> bool:
    """The expression visibly holds integers (see the module doc)."""
    while True:
        node = _strip(node, _KEEPS_ALL | {"view", "reshape", "flatten", "squeeze", "unsqueeze"}, qualify)
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in ("to", "type"):
            dtype = _dtype(node, qualify)
            if dtype is not None:
                return dtype
            node = node.func.value
            continue
        break
    if isinstance(node, cst.Name):
        return INTEGER in bound(node.value)
    if isinstance(node, cst.Subscript):
        # rows of an integer tensor (``X[ix]``) are integers too
        return _counts(node, qualify) or integer_kind(node.value, qualify, bound)
    if not isinstance(node, cst.Call):
        return False
    dtype = _keyword(node, "dtype")
    if dtype is not None:
        return (qualify(dtype) or "") in _INT_DTYPES
    qn = qualify(node.func) or ""
    if qn in _INT_RESULTS:
        return True
    if qn in ("torch.tensor", "torch.as_tensor", "torch.LongTensor", "torch.IntTensor"):
        args = _positional(node)
        return qn in ("torch.LongTensor", "torch.IntTensor") or (bool(args) and _int_literals(args[0]))
    if qn == "torch.arange":
        args = _positional(node)
        return bool(args) and all(_int_leaf(a) for a in args)
    if isinstance(node.func, cst.Attribute) and not qn.startswith(("numpy.", "np.")):
        method = node.func.attr.value
        if method in _INT_CASTS:
            return True
        if method in _FLOAT_CASTS:
            return False
        return method in _INT_METHODS
    return False


def _dtype(node: cst.Call, qualify: Qualify) -> Optional[bool]:
    """``.to(torch.long)`` -> True, ``.to(torch.float32)`` -> False, else None."""
    for arg in node.args:
        if arg.keyword is not None and arg.keyword.value != "dtype":
            continue
        name = qualify(arg.value) or ""
        if name in _INT_DTYPES:
            return True
        if name in _FLOAT_DTYPES:
            return False
    return None


def _counts(node: cst.Subscript, qualify: Qualify) -> bool:
    """``torch.unique(x, return_counts=True)[1]`` (or ``[-1]``): the counts, or the
    inverse indices; both int64 (only ``[0]``, the values, has the input's dtype)."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return False
    position = _literal(node.slice[0].slice.value)
    call = node.value
    if not isinstance(call, cst.Call) or position not in (1, -1, 2):
        return False
    counts = _literal(_keyword(call, "return_counts")) is True
    inverse = _literal(_keyword(call, "return_inverse")) is True
    if (counts + inverse) < (2 if position == 2 else 1):
        return False
    qn = qualify(call.func) or ""
    if qn in ("torch.unique", "torch.unique_consecutive"):
        return True
    return isinstance(call.func, cst.Attribute) and call.func.attr.value in _COUNTS and not qn.startswith(
        ("numpy.", "np.")
    )


def _int_literals(node: cst.BaseExpression) -> bool:
    """A list/tuple literal whose leaves are integer literals, or a comprehension of
    sizes (``[x.shape[-1] for x in xs]``, ``len(...)``)."""
    if isinstance(node, (cst.List, cst.Tuple)):
        return bool(node.elements) and all(
            not isinstance(e, cst.StarredElement) and _int_leaf(e.value) for e in node.elements
        )
    if isinstance(node, (cst.ListComp, cst.GeneratorExp)):
        return _int_leaf(node.elt)
    return False


def _int_leaf(node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.List, cst.Tuple)):
        return _int_literals(node)
    value = _literal(node)
    if isinstance(value, int) and not isinstance(value, bool):
        return True
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "len":
        return True
    # x.shape[i] / x.size(i): a size
    if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Attribute) and node.value.attr.value == "shape":
        return True
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "size"


_PARAMETERS = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})
_GRAD_FACTORIES = _FACTORIES | frozenset(f"torch.{n}" for n in ("tensor", "empty", "full", "arange"))


def parameter_kind(node: cst.BaseExpression, qualify: Qualify) -> bool:
    """A tensor that requires grad, made right here: ``nn.Parameter(...)``, or a factory
    given ``requires_grad=True`` (``torch.randn(27, 10, requires_grad=True)``)."""
    if not isinstance(node, cst.Call):
        return False
    qn = qualify(node.func) or ""
    if qn in _PARAMETERS:
        requires = _keyword(node, "requires_grad")
        return requires is None or _literal(requires) is not False
    return qn in _GRAD_FACTORIES and _literal(_keyword(node, "requires_grad")) is True


_BOOL_METHODS = frozenset({"bool", "eq", "ne", "gt", "ge", "lt", "le", "isnan", "isinf", "isfinite", "logical_not", "logical_and", "logical_or"})


def bool_kind(node: cst.BaseExpression) -> bool:
    """The expression visibly holds booleans: a comparison (``ids == token``), a
    comparison method or ``.bool()``, and ``~``/``&``/``|``/``^`` of those. (A mask, not
    an index: :func:`index_tensor` keeps them apart; ``cumsum`` of one counts in int64.)"""
    kind = type(node)  # type tests, not isinstance: see cst_helpers.CONCRETE
    if kind is cst.Comparison:
        return True
    if kind is cst.UnaryOperation and type(node.operator) is cst.BitInvert:  # type: ignore[attr-defined]
        return bool_kind(node.expression)  # type: ignore[attr-defined]
    if kind is cst.BinaryOperation and type(node.operator) in (cst.BitAnd, cst.BitOr, cst.BitXor):  # type: ignore[attr-defined]
        return bool_kind(node.left) and bool_kind(node.right)  # type: ignore[attr-defined]
    if kind is cst.Call and type(node.func) is cst.Attribute:  # type: ignore[attr-defined]
        return node.func.attr.value in _BOOL_METHODS  # type: ignore[attr-defined]
    return False


def index_tensor(node: cst.BaseExpression, qualify: Qualify, bound: Bound) -> bool:
    """An integer tensor used as an index (advanced indexing), not a boolean mask (a mask
    selects each element at most once)."""
    core = _strip(node, _KEEPS_ALL | {"view", "reshape", "flatten", "squeeze", "unsqueeze"}, qualify)
    if isinstance(core, cst.Call) and isinstance(core.func, cst.Attribute) and core.func.attr.value == "bool":
        return False
    dtype = _keyword(core, "dtype") if isinstance(core, cst.Call) else None
    if dtype is not None and (qualify(dtype) or "") == "torch.bool":
        return False
    return integer_kind(node, qualify, bound)


# Calls that read tensors from a file: what comes out requires no grad.
_CHECKPOINT_READS = frozenset({
    "torch.load", "torch.hub.load_state_dict_from_url", "torch.utils.model_zoo.load_url",
    "safetensors.torch.load_file", "safetensors.torch.load",
})
# Methods and slicing that keep "requires no grad" (a view or copy of the same data).
# Methods whose result is a view or copy of the tensor they are called on (no grad if it had none).
KEEPS_NO_GRAD = (_KEEPS_SHAPE | frozenset({
    "reshape", "view", "permute", "transpose", "flatten", "unsqueeze", "squeeze", "expand", "repeat",
})) - {"requires_grad_"}  # `x.detach().requires_grad_()` is a leaf that requires grad


# Functions of one tensor (the others arguments are sizes, modes, literals): the result
# of one given a tensor without grad has none either.
_ONE_TENSOR_FUNCTIONS = frozenset(f"torch.nn.functional.{n}" for n in (
    "interpolate", "upsample", "avg_pool1d", "avg_pool2d", "avg_pool3d", "max_pool1d", "max_pool2d", "max_pool3d",
    "adaptive_avg_pool2d", "pad", "softmax", "log_softmax", "normalize", "relu", "gelu", "sigmoid", "tanh",
))


def no_grad_kind(node: cst.BaseExpression, qualify: Qualify, bound: Bound) -> bool:
    """The tensor visibly requires no grad, so no backward pass runs through an op on it:
    ``x.detach()``, ``x.data``, a comparison's bool tensor (``(x > 0).float()``), or data read from a checkpoint (``torch.load(p)["model"]
    ["pos_embed"]``, through slicing and reshapes, or a name bound to one); a function of
    one tensor given such a tensor (``F.interpolate(target.detach(), size=224)``)."""
    if isinstance(node, cst.Call) and (qualify(node.func) or "") in _ONE_TENSOR_FUNCTIONS and node.args \
            and node.args[0].keyword is None and not node.args[0].star:
        return no_grad_kind(node.args[0].value, qualify, bound)
    while True:
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and qualify(node.func) is None:
            if node.func.attr.value == "detach":
                return True
            if node.func.attr.value in KEEPS_NO_GRAD:
                node = node.func.value
                continue
        if isinstance(node, cst.Subscript):
            node = node.value
            continue
        break
    if isinstance(node, cst.Attribute) and node.attr.value == "data" and qualify(node) is None:
        return True
    if isinstance(node, cst.Comparison):
        return True  # `(input > 0).float()`: a comparison's bool tensor requires no grad
    if isinstance(node, cst.Name):
        return bool({NO_GRAD, BOOL} & bound(node.value))
    return isinstance(node, cst.Call) and (qualify(node.func) or "") in _CHECKPOINT_READS


def expression_kinds(node: cst.BaseExpression, qualify: Qualify, bound: Bound) -> frozenset[str]:
    """The kinds a name bound to ``node`` carries (for ``bound`` later in the scope)."""
    kinds = set()
    if no_grad_kind(node, qualify, bound):
        kinds.add(NO_GRAD)
    if parameter_kind(node, qualify):
        kinds.add(PARAMETER)
    if spatial_kind(node, qualify, bound):
        kinds.add(SPATIAL)
    if integer_kind(node, qualify, bound):
        kinds.add(INTEGER)
    if bool_kind(node):
        kinds.add(BOOL)
    return frozenset(kinds)


_TF_CASTS = frozenset({
    "tensorflow.cast", "tensorflow.to_int64", "tensorflow.to_int32", "tensorflow.compat.v1.to_int64",
    "tensorflow.compat.v1.to_int32",
})
_TF_WHERE = frozenset({"tensorflow.where", "tensorflow.compat.v1.where", "tensorflow.compat.v2.where"})


def tf_mask_coordinates(node: cst.BaseExpression, qualify: Any, bound: Any, scope: int, depth: int = 0) -> bool:
    """``tf.where(mask)`` with the condition alone: the coordinates of the mask's true
    elements, each once (the three-argument form is a select), through ``tf.cast`` /
    ``tf.to_int64`` / ``tf.to_int32``, or a name bound to one in this function (``bound``
    maps (scope, name) to the value last bound)."""
    if depth > 3:
        return False
    if type(node) is cst.Name:
        value = bound((scope, node.value))
        return value is not None and tf_mask_coordinates(value, qualify, bound, scope, depth + 1)
    if type(node) is not cst.Call:
        return False
    qn = qualify(node.func) or ""
    args = [a for a in node.args if a.keyword is None and not a.star]
    if qn in _TF_CASTS and args:
        return tf_mask_coordinates(args[0].value, qualify, bound, scope, depth + 1)
    return qn in _TF_WHERE and len(node.args) == 1 and node.args[0].keyword is None and not node.args[0].star
