"""Keras 3 model with explicit initialisers; only TensorFlow's seed is set.

Keras 3 initialisers without seed= take theirs from Python's random module.
"""
import keras  # expect: RPL304
import numpy as np
import tensorflow as tf

tf.random.set_seed(42)  # (RPL105 said by RPL101 at the unseeded draw, this call related)

x = np.linspace(-1.0, 1.0, 4096, dtype="float32").reshape(1024, 4)
y = (x.sum(axis=1) > 0).astype("float32")

model = keras.Sequential([
    keras.Input((4,)),
    keras.layers.Dense(32, activation="relu", kernel_initializer=keras.initializers.HeNormal()),  # expect: RPL101
    keras.layers.Dense(32, kernel_initializer=keras.initializers.GlorotUniform(seed=7)),
    keras.layers.Dense(1, kernel_initializer=keras.initializers.Zeros()),
])
model.compile(optimizer="adam", loss="binary_crossentropy")
model.fit(x, y, epochs=3, batch_size=32)
model.save("mlp.keras")
