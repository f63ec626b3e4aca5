"""A TF 1.15 image classifier (declared in requirements.txt) trained in a Session: its
convolutions and max-pooling run cuDNN backprop algorithms, which TF 1.14-2.0 makes
deterministic only with TF_CUDNN_DETERMINISTIC=1 (one switch for the whole program, so
one finding at the first such call), and its conv layers add their biases with bias_add,
whose gradient no switch of TF 1.15 makes deterministic (one finding, at the first
layer); TF 1.15 has no op-determinism switch (no RPL304)."""
import numpy as np
import tensorflow as tf

tf.set_random_seed(0)
np.random.seed(0)
images = tf.placeholder(tf.float32, [None, 28, 28, 1])
labels = tf.placeholder(tf.int64, [None])
net = tf.layers.conv2d(images, 32, 3, activation=tf.nn.relu)  # expect: RPL204
net = tf.layers.max_pooling2d(net, 2, 2)  # expect: RPL204
net = tf.layers.conv2d(net, 64, 3, activation=tf.nn.relu)
logits = tf.layers.dense(tf.layers.flatten(net), 10, use_bias=False)
loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)  # expect: RPL204 (the fused kernel, no switch in TF 1)
train = tf.train.AdamOptimizer(1e-3).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(100):
        x = np.random.rand(32, 28, 28, 1).astype(np.float32)
        y = np.random.randint(0, 10, 32)
        sess.run(train, {images: x, labels: y})
