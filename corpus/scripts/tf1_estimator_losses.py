"""A Keras model trained on TensorFlow 1: no Session or placeholder, but `tf.to_float`
and `tf.losses.sparse_softmax_cross_entropy` exist only in TensorFlow 1 (TF 2 moved them
under tf.compat.v1). TF 1 has no op-determinism switch, so no RPL304 advice to call
`enable_op_determinism()`, which it does not have; its fused softmax cross-entropy is
nondeterministic on GPU with no switch (RPL204), and so is the gradient of the bias its
Dense layer adds with bias_add (RPL204)."""
import numpy as np
import tensorflow as tf


def loss(labels, logits):
    return tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)  # expect: RPL204


def accuracy(labels, logits):
    return tf.reduce_mean(tf.to_float(tf.equal(tf.argmax(logits, 1), tf.cast(labels, tf.int64))))


def main():
    tf.set_random_seed(0)
    np.random.seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(10, kernel_initializer="zeros", input_shape=(4,))])  # expect: RPL204
    model.compile(optimizer="sgd", loss=loss, metrics=[accuracy])
    model.fit(np.zeros((32, 4), "float32"), np.zeros(32, "int64"), epochs=2, shuffle=False)


if __name__ == "__main__":
    main()
