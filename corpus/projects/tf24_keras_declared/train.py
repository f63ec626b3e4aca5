import numpy as np  # expect: RPL304
import random

import tensorflow as tf
from tensorflow import keras

random.seed(1)
tf.random.set_seed(1)
np.random.seed(1)

(x_train, y_train), _ = keras.datasets.mnist.load_data()
x_train = x_train.reshape(-1, 28, 28, 1).astype("float32") / 255.0
model = keras.Sequential([
    keras.layers.Conv2D(16, 3, activation="relu", input_shape=(28, 28, 1)),
    keras.layers.Flatten(),
    keras.layers.Dense(10),
])
model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))  # expect: RPL204
model.fit(x_train, y_train, epochs=2, batch_size=64, shuffle=False)
model.save("mnist_cnn.h5")
