"""A tf.keras classifier on TensorFlow 2.4, as the project declares: before Keras 2.11 an
unseeded initialiser draws from TensorFlow's global seed (not Python's `random`), so
seeding `random` and NumPy leaves the initial weights, and `fit`'s shuffling, unseeded."""
import random  # expect: RPL304

import numpy as np
import tensorflow as tf

random.seed(0)
np.random.seed(0)
x = np.zeros((64, 8), dtype="float32")
y = np.zeros((64,), dtype="int32")
model = tf.keras.Sequential([
    tf.keras.layers.Dense(16, activation="relu"),  # expect: RPL101
    tf.keras.layers.Dense(2),  # expect: RPL101
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(x, y, epochs=2, batch_size=8)  # expect: RPL101
