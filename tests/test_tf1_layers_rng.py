"""TF 1's own layers (`tf.layers.dense`, `tf.compat.v1.layers.dense`) initialise their
weights from the graph seed in a program that runs TensorFlow 1, as tf.keras's
initialisers do there: RPL101 names TensorFlow's RNG, not Python's `random` (which the
Keras 2 layers of TF 2 up to 2.15 take their default seeds from)."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

PROGRAM = '''import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 8])
h = LAYER(x, 4)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(h, {x: [[0.0] * 8]}))
'''


@pytest.mark.parametrize("layer", ["tf.layers.dense", "tf.compat.v1.layers.dense"])
def test_a_tf1_program_s_layers_draw_from_tensorflow(layer: str) -> None:
    found = [d for d in check_source(PROGRAM.replace("LAYER", layer), "model.py") if d.code == "RPL101"]
    assert len(found) == 1
    assert "initialises weights from TensorFlow's global RNG" in found[0].message
