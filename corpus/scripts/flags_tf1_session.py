"""TF1-style graph training with a Session (still found in older research code)."""
import numpy as np  # expect: RPL304
import tensorflow as tf

tf.compat.v1.disable_eager_execution()
tf.compat.v1.set_random_seed(0)
np.random.seed(0)

x = tf.compat.v1.placeholder(tf.float32, [None, 784])
y = tf.compat.v1.placeholder(tf.int64, [None])
w = tf.Variable(tf.zeros([784, 10]))
logits = tf.matmul(x, w)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))  # expect: RPL204
train_op = tf.compat.v1.train.AdamOptimizer(1e-3).minimize(loss)

images = np.load("mnist_x.npy").reshape(-1, 784) / 255.0
labels = np.load("mnist_y.npy")
with tf.compat.v1.Session() as sess:  # a Session alone: its ops are reported (line 13)
    sess.run(tf.compat.v1.global_variables_initializer())
    for step in range(1000):
        idx = np.random.randint(0, len(images), 128)
        sess.run(train_op, {x: images[idx], y: labels[idx]})
