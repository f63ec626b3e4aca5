"""Linear regression in TF1 graph mode: placeholders, a Session loop."""
import numpy as np
import tensorflow as tf

tf.set_random_seed(0)
np.random.seed(0)
features = tf.placeholder(tf.float32, [None, 4])
targets = tf.placeholder(tf.float32, [None, 1])
weights = tf.Variable(tf.zeros([4, 1]))
bias = tf.Variable(tf.zeros([1]))
loss = tf.reduce_mean(tf.square(tf.matmul(features, weights) + bias - targets))
train_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss)

data_x = np.random.rand(64, 4).astype("float32")
data_y = data_x.sum(axis=1, keepdims=True)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(200):
        _, value = sess.run([train_op, loss], {features: data_x, targets: data_y})
    print("final loss", value)
