"""An old graph-mode model kept running on TensorFlow 2 through tf.compat.v1."""
import random  # expect: RPL304

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
random.seed(3)
tf.set_random_seed(3)
np.random.seed(3)

inputs = tf.placeholder(tf.float32, [None, 8])
labels = tf.placeholder(tf.int64, [None])
hidden = tf.layers.dense(inputs, 32, activation=tf.nn.relu)  # expect: RPL204
logits = tf.layers.dense(hidden, 2)  # expect: RPL204
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
step = tf.train.AdamOptimizer(1e-3).minimize(loss)

batch_x = np.random.rand(32, 8).astype("float32")
batch_y = (batch_x.sum(axis=1) > 4).astype("int64")
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(100):
        sess.run(step, {inputs: batch_x, labels: batch_y})
