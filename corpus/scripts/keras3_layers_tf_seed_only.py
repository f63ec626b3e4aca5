"""Keras 3 model seeded with tf.random.set_seed only.

Keras 3 draws the initial weights of its layers and the seeds of its dropout layers from
Python's random module when they are built, so tf.random.set_seed does not fix them
(keras.utils.set_random_seed would). fit() shuffles the arrays with TensorFlow's seed,
which is set.
"""
import numpy as np  # expect: RPL304
import tensorflow as tf
from tensorflow import keras

tf.random.set_seed(7)  # (RPL105 said by RPL101 at the unseeded draw, this call related)

x = np.linspace(-1.0, 1.0, 2048, dtype="float32").reshape(512, 4)
y = np.sin(x.sum(axis=1)).astype("float32")

model = keras.Sequential([
    keras.Input((4,)),
    keras.layers.Dense(16, activation="relu"),  # expect: RPL101
    keras.layers.Dropout(0.25),  # expect: RPL101
    keras.layers.Dense(1),  # expect: RPL101
])
model.compile(optimizer="adam", loss="mse")
model.fit(x, y, epochs=2, batch_size=32, validation_split=0.1)
