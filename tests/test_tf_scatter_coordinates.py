"""`tf.scatter_nd` (and `tensor_scatter_nd_*`) at the coordinates `tf.where(mask)` returns
(each true element once, through `tf.to_int64`/`tf.cast` or a name bound to them): no two
updates meet, so RPL204 does not report it; scattered at indices that may repeat, it is
nondeterministic on GPU and reported. The claim is checked on the real TensorFlow where
it is installed (tests/libraries)."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

PROGRAM = '''import tensorflow as tf

tf.set_random_seed(0)
tokens = tf.placeholder(tf.int64, [None, 64])
rows = tf.placeholder(tf.float32, [None, 128])
mask = tokens > 100
INDEX
y = tf.scatter_nd(idx, rows, [32, 64, 128])
loss = tf.reduce_sum(tf.square(y))
train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)
'''


def rpl204(index: str) -> list[int]:
    return [d.span.start_line for d in check_source(PROGRAM.replace("INDEX", index), "model.py") if d.code == "RPL204"]


@pytest.mark.parametrize("index", [
    "idx = tf.where(mask)",
    "idx = tf.to_int64(tf.where(mask))",
    "where = tf.where(mask)\nidx = tf.cast(where, tf.int64)",
])
def test_mask_coordinates_do_not_repeat(index: str) -> None:
    assert rpl204(index) == []


@pytest.mark.parametrize("index", [
    "idx = tf.reshape(tokens, [-1, 1])",
    "idx = tf.where(mask, tokens, tokens)",  # a select, not coordinates
])
def test_indices_that_may_repeat_are_reported(index: str) -> None:
    assert rpl204(index) == [8 + index.count("\n")]
