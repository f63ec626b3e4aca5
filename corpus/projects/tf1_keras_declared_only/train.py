# tf.keras on TensorFlow 1.15, as the project declares (no TF 1-only name is called):
# its initial weights and dropout follow TensorFlow's graph seed, and fit shuffles
# with NumPy. The program seeds `random` only, as TF 2's Keras would need. Its Dense
# layers add their biases with bias_add, whose gradient TF 1.15 computes
# nondeterministically on GPU (one RPL204 finding, the other layer related).
import random

import numpy as np
import tensorflow as tf

random.seed(0)
(x_train, y_train), _ = tf.keras.datasets.fashion_mnist.load_data()
x_train = x_train.reshape(-1, 784).astype("float32") / 255.0
model = tf.keras.Sequential([
    tf.keras.layers.Dense(128, activation="relu", input_shape=(784,)),  # expect: RPL101, RPL204
    tf.keras.layers.Dropout(0.2),  # expect: RPL101
    tf.keras.layers.Dense(10, activation="softmax"),  # expect: RPL101
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(x_train, y_train, epochs=5)  # expect: RPL101
model.save("fashion.h5")
