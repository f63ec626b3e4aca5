"""Inference with a trained TF 1 classifier: the variables' random initialisers are
replaced by `saver.restore`, so nothing drawn here reaches the predictions."""
import sys

import numpy as np
import tensorflow as tf

images = tf.placeholder(tf.float32, [None, 28, 28, 1])
kernel = tf.get_variable("conv1/kernel", [5, 5, 1, 32])
hidden = tf.nn.relu(tf.nn.conv2d(images, kernel, strides=[1, 1, 1, 1], padding="SAME"))
logits = tf.layers.dense(tf.layers.flatten(hidden), 10)
saver = tf.train.Saver()
with tf.Session() as sess:
    saver.restore(sess, sys.argv[1])
    batch = np.load(sys.argv[2])
    print(sess.run(tf.argmax(logits, 1), {images: batch}))
