"""TensorFlow 2 written against `tensorflow.compat.v2`, training its own Keras layers in
a custom loop: Keras's layers run kernels (bias addition, convolution backprop) that
differ between runs on GPU unless op determinism is on."""
import numpy as np  # expect: RPL304
import tensorflow.compat.v2 as tf


class ConvBlock(tf.keras.layers.Layer):
    def __init__(self, filters):
        super().__init__()
        self.conv = tf.keras.layers.Conv2D(filters, 3, padding="same", kernel_initializer="zeros")
        self.head = tf.keras.layers.Dense(10, kernel_initializer="zeros")

    def call(self, x):
        return self.head(tf.reduce_mean(self.conv(x), axis=[1, 2]))


def main():
    images = np.load("images.npy").astype("float32")
    labels = np.load("labels.npy")
    block = ConvBlock(16)
    optimizer = tf.keras.optimizers.SGD(0.1)
    for step in range(100):
        with tf.GradientTape() as tape:
            logits = block(images)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
        grads = tape.gradient(loss, block.trainable_variables)
        optimizer.apply_gradients(zip(grads, block.trainable_variables))
    block.save_weights("block.h5")


if __name__ == "__main__":
    main()
