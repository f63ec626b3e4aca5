"""The look-alike of tf1_bert_style_initializer.py: `tf.set_random_seed` runs before the
graph is built, so the truncated-normal initialisers follow it."""
import numpy as np
import tensorflow as tf

tf.set_random_seed(12345)


def create_initializer(initializer_range=0.02):
    return tf.truncated_normal_initializer(stddev=initializer_range)


def dense(x, units, name):
    with tf.variable_scope(name):
        w = tf.get_variable("kernel", [int(x.shape[-1]), units], initializer=create_initializer())
        b = tf.get_variable("bias", [units], initializer=tf.zeros_initializer())
        return tf.matmul(x, w) + b


features = tf.placeholder(tf.float32, [None, 16])
labels = tf.placeholder(tf.int32, [None])
logits = dense(tf.nn.relu(dense(features, 32, "hidden")), 2, "output")
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))  # expect: RPL204
train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(100):
        sess.run(train_op, {features: np.ones((8, 16)), labels: np.zeros(8)})
