"""The look-alike of tf1_conv_cudnn_env: the same training, but its conv layer keeps
its bias (the default), added with bias_add. TF_CUDNN_DETERMINISTIC covers the cuDNN
convolution and pooling, not the bias gradient, which TF 1.14-2.0 computes with atomics
(NVIDIA's status page): still nondeterministic."""
import os

os.environ["TF_CUDNN_DETERMINISTIC"] = "1"

import numpy as np
import tensorflow as tf

tf.set_random_seed(0)
np.random.seed(0)
images = tf.placeholder(tf.float32, [None, 28, 28, 1])
labels = tf.placeholder(tf.int64, [None])
net = tf.nn.max_pool(tf.layers.conv2d(images, 32, 3), [1, 2, 2, 1], [1, 2, 2, 1], "VALID")  # expect: RPL204
logits = tf.layers.dense(tf.layers.flatten(net), 10, use_bias=False)
loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)  # expect: RPL204 (the fused kernel, no switch in TF 1)
train = tf.train.AdamOptimizer(1e-3).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(10):
        sess.run(train, {images: np.random.rand(8, 28, 28, 1), labels: np.random.randint(0, 10, 8)})
