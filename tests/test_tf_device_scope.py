"""`with tf.device("/cpu:0"):` places the ops created in the block on the CPU, those of
the functions and constructors it calls too; a gradient is placed where it is computed.
So a backward-only GPU nondeterminism (the bias_add of `tf.layers.dense`) is not reported
where the layer and every gradient step of the program are built in such a block, and
is where the gradient is taken outside it or the layer sits in a GPU tower inside it.
A function a `tf.data` pipeline runs (`ds.map(preprocess)`) runs on the CPU with no
gradient through it: its ops are not reported, the same function in the model is."""
from __future__ import annotations

from reprolint.api import check_source

PROGRAM = '''import numpy as np
import tensorflow as tf

tf.set_random_seed(0)
np.random.seed(0)


def build(x, y):
    logits = tf.layers.dense(x, 10)
    return tf.reduce_mean(tf.square(logits - y))


x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 10])
BODY
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(train, {x: np.zeros((2, 4)), y: np.zeros((2, 10))})
'''


def rpl204_lines(body: str) -> list[int]:
    return [d.span.start_line for d in check_source(PROGRAM.replace("BODY", body), "train.py") if d.code == "RPL204"]


def test_layer_and_gradient_built_on_the_cpu_are_not_reported() -> None:
    body = 'with tf.device("/cpu:0"):\n    train = tf.train.AdamOptimizer().minimize(build(x, y))\n'
    assert rpl204_lines(body) == []


def test_a_gradient_taken_outside_the_cpu_block_is_reported() -> None:
    body = 'with tf.device("/cpu:0"):\n    loss = build(x, y)\ntrain = tf.train.AdamOptimizer().minimize(loss)\n'
    assert rpl204_lines(body) == [9]


def test_a_gpu_tower_inside_the_cpu_block_is_reported() -> None:
    body = ('with tf.device("/cpu:0"):\n    with tf.device("/gpu:0"):\n        loss = build(x, y)\n'
            '    train = tf.train.AdamOptimizer().minimize(loss)\n')
    assert rpl204_lines(body) == [9]


def test_without_a_device_block_the_layer_is_reported() -> None:
    assert rpl204_lines("train = tf.train.AdamOptimizer().minimize(build(x, y))\n") == [9]


def test_an_op_written_in_a_gpu_tower_inside_the_cpu_block_is_reported() -> None:
    # a segment sum's forward accumulates with atomics on the GPU (its own block places it)
    body = ('with tf.device("/cpu:0"):\n    with tf.device("/gpu:0"):\n'
            '        pooled = tf.math.unsorted_segment_sum(x, tf.zeros([2], tf.int32), 1)\n'
            '    train = tf.train.AdamOptimizer().minimize(build(pooled, y))\n')
    assert 17 in rpl204_lines(body)


PIPELINE = '''import tensorflow as tf

tf.keras.utils.set_random_seed(0)


def preprocess(image):
    return tf.image.resize(image, [8, 8])


ds = tf.data.Dataset.from_tensor_slices(tf.zeros([4, 16, 16, 3])).MAP.batch(2)
model = tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)])
model.compile("adam", "mse")
model.fit(ds.map(lambda x: (x, tf.zeros([2, 1]))), epochs=1)
'''


def test_a_function_a_tf_data_pipeline_runs_takes_no_gradient() -> None:
    for given in ("map(preprocess)", "map(lambda x: preprocess(x))", "map(map_func=preprocess)"):
        found = [d.span.start_line for d in check_source(PIPELINE.replace("MAP", given), "train.py")
                 if d.code == "RPL204"]
        assert found == [], given


def test_the_same_function_in_the_model_is_reported() -> None:
    source = PIPELINE.replace("MAP", "map(lambda x: x)").replace(
        "tf.keras.layers.Flatten()", "tf.keras.layers.Lambda(preprocess), tf.keras.layers.Flatten()")
    assert [d.span.start_line for d in check_source(source, "train.py") if d.code == "RPL204"] == [7]
