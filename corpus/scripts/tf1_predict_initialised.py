"""The look-alike of tf1_predict_restored.py: it initialises the variables instead of
restoring them, so its predictions come from unseeded random weights."""
import sys

import numpy as np
import tensorflow as tf

images = tf.placeholder(tf.float32, [None, 28, 28, 1])
kernel = tf.get_variable("conv1/kernel", [5, 5, 1, 32])  # expect: RPL101
hidden = tf.nn.relu(tf.nn.conv2d(images, kernel, strides=[1, 1, 1, 1], padding="SAME"))
logits = tf.layers.dense(tf.layers.flatten(hidden), 10)  # expect: RPL101
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    batch = np.load(sys.argv[2])
    print(sess.run(tf.argmax(logits, 1), {images: batch}))
