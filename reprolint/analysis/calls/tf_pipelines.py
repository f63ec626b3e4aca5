"""TensorFlow input pipelines whose element order depends on thread timing.

TF1 queue pipelines hand batches over in the order their enqueue threads finish:
``tf.train.batch``/``shuffle_batch`` run ``num_threads`` threads (default 1), and
``batch_join``/``shuffle_batch_join`` one thread per tensor tuple of ``tensors_list``.
Measured with TensorFlow 2.21 (``tf.compat.v1``): 8 threads gave 4 different orders in
6 runs, 1 thread always the same (``tests/libraries/test_tf_pipelines_real.py``).
The estimator input functions (``tf.estimator.inputs.numpy_input_fn``/``pandas_input_fn``)
feed a queue the same way, with ``num_threads`` (default 1) enqueue threads.
``tf.data.experimental.parallel_interleave(..., sloppy=True)`` likewise hands elements
over as they are ready.

Each call is recorded as a ``tf-setting`` usage whose ``kwargs`` hold the values the
catalog's conditions (``rules/tf.toml``) read: ``num_threads`` (for the ``*_join``
functions, the number of tensor tuples: one enqueue thread each) and ``sloppy``. A value
the program takes from an option (``args.threads``) is an ``OptionRef``, decided per
program from the option's default by RPL204.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from reprolint.analysis.calls import CallSite, on_call
from reprolint.analysis.cst_helpers import find_argument
from reprolint.analysis.usage_events import TfSetting

_PREFIXES = ("tensorflow.", "tensorflow.compat.v1.")
# 0-based position of ``num_threads`` in each function's signature.
_THREADED = {
    "train.batch": 2, "train.shuffle_batch": 4,
    "estimator.inputs.numpy_input_fn": 6, "estimator.inputs.pandas_input_fn": 6,
}
_JOINED = ("train.batch_join", "train.shuffle_batch_join")


def _argument(site: CallSite, keyword: str, position: int) -> Any:
    arg = find_argument(site.node, keyword, position)
    return arg.value if arg is not None else None


def _value(c: Any, node: Any) -> Any:
    """A literal, a function parameter's default or module constant, or an ``OptionRef``."""
    return c._u_op_value(node)


@on_call(*(p + name for p in _PREFIXES for name in _THREADED))
def _threaded(c: Any, site: CallSite) -> None:
    if any(a.star for a in site.node.args):
        return  # ``**kwargs``: the thread count is not visible
    node = _argument(site, "num_threads", _THREADED[site.qualname.split(".", 1)[1].replace("compat.v1.", "")])
    threads = 1 if node is None else _value(c, node)
    c._u_emit(TfSetting, _name(site.qualname), site.node, kwargs=(("num_threads", threads),))


@on_call(*(p + name for p in _PREFIXES for name in _JOINED))
def _joined(c: Any, site: CallSite) -> None:
    from reprolint.analysis.values import UNKNOWN

    tensors = _argument(site, "tensors_list", 0)
    if isinstance(tensors, cst.Name):
        tensors = c.__dict__.get("tf_lists", {}).get(tensors.value)
    threads: Any = UNKNOWN
    if isinstance(tensors, cst.List) and not any(isinstance(e, cst.StarredElement) for e in tensors.elements):
        threads = len(tensors.elements)
    elif isinstance(tensors, cst.ListComp) and tensors.for_in.inner_for_in is None:
        # ``[read(queue) for _ in range(n)]``: n threads
        source = tensors.for_in.iter
        if isinstance(source, cst.Call) and isinstance(source.func, cst.Name) and source.func.value == "range" \
                and len(source.args) == 1:
            threads = _value(c, source.args[0].value)
    c._u_emit(TfSetting, _name(site.qualname), site.node, kwargs=(("num_threads", threads),))


@on_call(
    "tensorflow.data.experimental.parallel_interleave", "tensorflow.contrib.data.parallel_interleave",
    "tensorflow.compat.v1.data.experimental.parallel_interleave",
)
def _parallel_interleave(c: Any, site: CallSite) -> None:
    if any(a.star for a in site.node.args):
        return
    node = _argument(site, "sloppy", 3)
    sloppy = False if node is None else _value(c, node)
    c._u_emit(TfSetting, "tensorflow.data.experimental.parallel_interleave", site.node,
              kwargs=(("sloppy", sloppy),))


def note_assignment(c: Any, names: list[str], value: cst.BaseExpression) -> None:
    """Remember the list literals and comprehensions bound to names (``readers = [read(q)
    for _ in range(n)]``), which a later ``batch_join(readers, ...)`` is given."""
    lists: dict[str, cst.BaseExpression] = c.__dict__.setdefault("tf_lists", {})
    for name in names:
        if isinstance(value, (cst.List, cst.ListComp)):
            lists[name] = value
        else:
            lists.pop(name, None)


def _name(qualname: str) -> str:
    """The catalog's spelling: ``tensorflow.compat.v1.train.batch`` -> ``tensorflow.train.batch``."""
    return qualname.replace("tensorflow.compat.v1.", "tensorflow.", 1)
