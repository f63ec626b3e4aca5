"""Keras 3 program that seeds Python's random module and NumPy but not TensorFlow.

Keras 3 takes the seeds of its layers and dropout from Python's random module, so the
model is seeded; fit() on NumPy arrays shuffles them every epoch by default
(shuffle=True) with TensorFlow's global seed, which nothing sets. The validation pass on
a tf.data.Dataset does not shuffle.
"""
import random  # expect: RPL304

import keras
import numpy as np
import tensorflow as tf

SEED = 1234


def load():
    x = np.linspace(-1.0, 1.0, 4096, dtype="float32").reshape(1024, 4)
    y = (x.sum(axis=1) > 0).astype("float32")
    return x, y


if __name__ == "__main__":
    random.seed(SEED)  # (RPL105 said by RPL101 at the unseeded draw, this call related)
    np.random.seed(SEED)
    x_train, y_train = load()
    model = keras.Sequential([
        keras.Input((4,)),
        keras.layers.Dense(32, activation="relu"),
        keras.layers.Dropout(0.3),
        keras.layers.Dense(1, activation="sigmoid"),
    ])
    model.compile(optimizer="adam", loss="binary_crossentropy")
    model.fit(x_train, y_train, epochs=3, batch_size=32)  # expect: RPL101  (RPL306 said by RPL101: the unseeded library is one cause)
    eval_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).batch(64)
    model.fit(eval_ds, epochs=1)
    model.fit(x_train, y_train, epochs=1, shuffle=False)
    model.save("default_shuffle.keras")
