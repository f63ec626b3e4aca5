"""A TensorFlow/Keras evaluation program that restores its trained variables
(`saver.restore(sess, path)`, `model.load_weights`, `load_model`) draws no initial weight
that counts. A restore does not make a program an evaluation: a training script that
restores and goes on training keeps its findings."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

GRAPH = '''import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 32, 32, 3])
w = tf.get_variable("w", [3, 3, 3, 8])
out = tf.nn.conv2d(x, w, strides=[1, 1, 1, 1], padding="SAME")
saver = tf.train.Saver()
with tf.Session() as sess:
    RESTORE
'''


@pytest.mark.parametrize("name, restore, expected", [
    ("predict.py", "saver.restore(sess, 'model.ckpt')\n    print(sess.run(out, {x: np.zeros((1, 32, 32, 3))}))", []),
    # no restore: the variables keep their random initial values
    ("predict.py", "sess.run(tf.global_variables_initializer())\n    print(sess.run(out, {x: np.zeros((1, 32, 32, 3))}))", [5]),
    # a training script that restores, then trains: its role is training
    ("train.py", "saver.restore(sess, 'model.ckpt')\n    step = tf.train.AdamOptimizer().minimize(tf.reduce_mean(out))\n"
                 "    sess.run(step, {x: np.zeros((1, 32, 32, 3))})", [5]),
])
def test_a_tf_evaluation_that_restores_draws_no_initial_weight(name: str, restore: str, expected: list) -> None:
    found = check_source(GRAPH.replace("RESTORE", restore), name)
    assert [d.span.start_line for d in found if d.code == "RPL101"] == expected


def test_keras_load_weights_in_an_evaluation() -> None:
    source = (
        "import numpy as np\nfrom tensorflow import keras\n\n"
        "model = keras.Sequential([keras.layers.Dense(4)])\nmodel.build((None, 8))\n"
        "LOAD\nprint(model.predict(np.zeros((2, 8))))\n"
    )
    assert [d for d in check_source(source.replace("LOAD", "model.load_weights('w.h5')"), "evaluate.py") if d.code == "RPL101"] == []
    assert [d.span.start_line for d in check_source(source.replace("LOAD", "pass"), "evaluate.py") if d.code == "RPL101"] == [4]
