"""A tf.compat.v1 graph model trained on the GPU without op determinism: the dense layer's
bias is added with BiasAdd and the embedding rows are read with tf.gather from a variable,
whose gradient is an IndexedSlices summed by UnsortedSegmentSum (`tf1` is
`tf.compat.v1`, renamed by assignment); both backward kernels
are nondeterministic on GPU unless op determinism is on. Look-alikes: a dense layer
without bias, and a gather from a placeholder (no variable, no gradient into it)."""
import random  # expect: RPL304

import numpy as np
import tensorflow as tf

tf1 = tf.compat.v1
tf1.disable_eager_execution()
tf1.set_random_seed(0)
random.seed(0)  # tf.compat.v1.layers (tf-keras's legacy layers) take their seeds from `random`

ids = tf1.placeholder(tf.int32, [None])
table = tf1.placeholder(tf.float32, [None, 8])
embeddings = tf1.get_variable("emb", [1000, 8])
rows = tf.gather(embeddings, ids)  # expect: RPL204
picked = tf.gather(table, ids)
hidden = tf1.layers.dense(rows + picked, 16)  # expect: RPL204
logits = tf1.layers.dense(hidden, 1, None, False)
loss = tf.reduce_mean(tf.square(logits))
train_op = tf1.train.AdamOptimizer(1e-3).minimize(loss)
feed = {ids: np.arange(32) % 1000, table: np.ones((32, 8), dtype=np.float32)}
with tf1.Session() as session:
    session.run(tf1.global_variables_initializer())
    for _ in range(100):
        session.run(train_op, feed)
