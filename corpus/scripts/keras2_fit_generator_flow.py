"""Keras 2 (tf.keras before TF 2.16) image classifier trained with fit_generator on an
ImageDataGenerator iterator; NumPy and TensorFlow are seeded, Python's random is not.

The iterator is a keras.utils.Sequence: fit_generator shuffles the order of its batches
every epoch (shuffle=True is the default) with Python's random module, and Keras takes
its layers' seeds from there too. The plain generator for the validation data is not
shuffled.
"""
import numpy as np  # expect: RPL304
import tensorflow as tf
from tensorflow.keras import layers, models
from tensorflow.keras.preprocessing.image import ImageDataGenerator


def validation_batches(x, y, size):
    for start in range(0, len(x), size):
        yield x[start:start + size], y[start:start + size]


if __name__ == "__main__":
    np.random.seed(0)  # (RPL105 said by RPL101 at the unseeded draw, this call related)
    tf.compat.v1.set_random_seed(0)
    datagen = ImageDataGenerator(rescale=1.0 / 255)
    train = datagen.flow_from_directory("data/train", target_size=(64, 64), batch_size=32, seed=0)
    model = models.Sequential([
        layers.Conv2D(16, 3, activation="relu", input_shape=(64, 64, 3)),  # expect: RPL101
        layers.Flatten(),
        layers.Dense(2, activation="softmax"),  # expect: RPL101
    ])
    model.compile(optimizer="adam", loss="categorical_crossentropy")
    model.fit_generator(train, steps_per_epoch=100, epochs=5)  # expect: RPL101  (RPL306 said by RPL101: the unseeded library is one cause)
    x_val = np.zeros((64, 64, 64, 3), "float32")
    y_val = np.zeros((64, 2), "float32")
    model.fit_generator(validation_batches(x_val, y_val, 32), steps_per_epoch=2, epochs=1)
