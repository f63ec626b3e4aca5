"""TF 1.x: the graph-level seed is set on the default graph, then the model is built in a
new graph, which has no seed of its own: its initialisers draw fresh op seeds every run.
NumPy is seeded and feeds the same batches."""
import numpy as np
import tensorflow as tf

tf.set_random_seed(1234)
np.random.seed(1234)

with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 16])
    w = tf.Variable(tf.truncated_normal([16, 4], stddev=0.1))  # expect: RPL101
    logits = tf.matmul(x, w)
    loss = tf.reduce_mean(tf.square(logits))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(100):
            sess.run(train_op, feed_dict={x: np.random.rand(8, 16)})
