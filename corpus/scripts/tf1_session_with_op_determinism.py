"""TF1 graph code that turns op determinism on, then trains through a Session (which
the guarantee does not cover), and evaluates a frozen graph in a second Session."""
import numpy as np
import tensorflow as tf

tf.config.experimental.enable_op_determinism()
tf.compat.v1.disable_eager_execution()
tf.compat.v1.set_random_seed(0)
np.random.seed(0)

x = tf.compat.v1.placeholder(tf.float32, [None, 32])
y = tf.compat.v1.placeholder(tf.float32, [None, 1])
w = tf.Variable(tf.zeros([32, 1]))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)

data = np.load("features.npy")
target = np.load("target.npy")
with tf.compat.v1.Session() as sess:  # expect: RPL204
    sess.run(tf.compat.v1.global_variables_initializer())
    for step in range(100):
        batch = np.random.randint(0, len(data), 64)
        sess.run(train_op, {x: data[batch], y: target[batch]})
