"""TF1 convolution training that sets TF_CUDNN_DETERMINISTIC=1 before TensorFlow is
imported: the one switch TF 1.14-2.0 has for its cuDNN convolutions and pooling, so they
are not reported (the layer has no bias: tf1_conv_bias_cudnn_env is the one with a
bias); nor is the convolution of an evaluation graph that nothing trains
(tf1_conv_inference_only). Its fused softmax cross-entropy loss is: no switch of TF 1
covers it."""
import os

os.environ["TF_CUDNN_DETERMINISTIC"] = "1"

import numpy as np
import tensorflow as tf

tf.set_random_seed(0)
np.random.seed(0)
images = tf.placeholder(tf.float32, [None, 28, 28, 1])
labels = tf.placeholder(tf.int64, [None])
net = tf.nn.max_pool(tf.layers.conv2d(images, 32, 3, use_bias=False), [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
logits = tf.layers.dense(tf.layers.flatten(net), 10, use_bias=False)
loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)  # expect: RPL204 (the fused kernel, no switch in TF 1)
train = tf.train.AdamOptimizer(1e-3).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(10):
        sess.run(train, {images: np.random.rand(8, 28, 28, 1), labels: np.random.randint(0, 10, 8)})
