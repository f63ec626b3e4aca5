"""A TF1 graph that only evaluates a restored convolution network: no gradient is taken,
so the cuDNN backprop algorithms never run (not reported)."""
import sys

import numpy as np
import tensorflow as tf

tf.set_random_seed(0)
images = tf.placeholder(tf.float32, [None, 28, 28, 1])
net = tf.layers.conv2d(images, 32, 3, activation=tf.nn.relu)
logits = tf.layers.dense(tf.layers.flatten(net), 10, use_bias=False)
saver = tf.train.Saver()
with tf.Session() as sess:
    saver.restore(sess, sys.argv[1])
    print(sess.run(tf.argmax(logits, 1), {images: np.load(sys.argv[2])}))
