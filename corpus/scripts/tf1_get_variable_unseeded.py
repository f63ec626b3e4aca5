"""TF1 linear model whose weights come from tf.get_variable's default initialiser
(glorot_uniform without a seed), which draws from the graph-level seed; the program never
sets one (tf.set_random_seed), so every run starts from other weights. The bias takes a
constant initialiser and draws nothing."""
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 1])
with tf.variable_scope("linear"):
    w = tf.get_variable("w", [4, 1])  # expect: RPL101
    b = tf.get_variable("b", [1], initializer=tf.constant_initializer(0.0))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)
data = np.ones((64, 4), dtype=np.float32)
with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    for _ in range(100):
        session.run(train_op, {x: data, y: data[:, :1]})
