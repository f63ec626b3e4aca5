"""Keras 3 with its TensorFlow backend chosen explicitly: TensorFlow trains."""
import os  # expect: RPL304

os.environ["KERAS_BACKEND"] = "tensorflow"

import keras
import tensorflow as tf

keras.utils.set_random_seed(0)
(x_train, y_train), _ = keras.datasets.mnist.load_data()
x_train = x_train.reshape(-1, 28, 28, 1).astype("float32") / 255.0
ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).batch(128)
model = keras.Sequential([
    keras.Input((28, 28, 1)),
    keras.layers.Conv2D(8, 3, activation="relu"),
    keras.layers.UpSampling2D(2),  # expect: RPL204
    keras.layers.GlobalAveragePooling2D(),
    keras.layers.Dense(10),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(ds, epochs=2)
