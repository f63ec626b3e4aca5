"""Keras 3 initialisers after keras.utils.set_random_seed (seeds random, NumPy, TF): clean."""
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(42)
tf.config.experimental.enable_op_determinism()

x = np.linspace(-1.0, 1.0, 4096, dtype="float32").reshape(1024, 4)
y = (x.sum(axis=1) > 0).astype("float32")
init = keras.initializers.VarianceScaling(scale=2.0, mode="fan_in")
model = keras.Sequential([
    keras.Input((4,)),
    keras.layers.Dense(32, activation="relu", kernel_initializer=init),
    keras.layers.Dense(1, kernel_initializer=keras.initializers.glorot_uniform()),
])
model.compile(optimizer="adam", loss="binary_crossentropy")
model.fit(x, y, epochs=3, batch_size=32)
