"""A TF1 layer helper whose weight initialiser is a default argument, made when the module
is imported, before `main` sets the graph seed. The object draws nothing when made: each
variable built with it reads the graph seed then, after `tf.set_random_seed`, so the
initial weights repeat. An initialiser in a script that never sets the seed draws
unseeded (tf1_bert_style_initializer.py); here only the training loss is reported."""
import numpy as np
import tensorflow as tf


def conv1d(x, scope, nf, w_init=tf.random_normal_initializer(stddev=0.02), b_init=tf.constant_initializer(0)):
    with tf.variable_scope(scope):
        nx = int(x.shape[-1])
        w = tf.get_variable("w", [nx, nf], initializer=w_init)
        b = tf.get_variable("b", [nf], initializer=b_init)
        return tf.matmul(x, w) + b


def main():
    tf.set_random_seed(42)
    features = tf.placeholder(tf.float32, [None, 16])
    labels = tf.placeholder(tf.int32, [None])
    hidden = tf.nn.relu(conv1d(features, "hidden", 32))
    logits = conv1d(hidden, "out", 2)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))  # expect: RPL204
    train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(100):
            sess.run(train_op, {features: np.ones((8, 16)), labels: np.zeros(8)})


if __name__ == "__main__":
    main()
