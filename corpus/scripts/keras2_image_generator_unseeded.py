"""Keras 2 cats-vs-dogs classifier (standalone `keras`, the book-era API): augmented
training images from ImageDataGenerator.flow_from_directory and a shuffled array flow.
TensorFlow and Python's random are seeded, NumPy is not, and the iterators are given no
seed=: their sample order and every random rotation, shift, zoom and flip come from
NumPy's global RNG, so each run trains on other batches."""
import random  # expect: RPL304

import numpy as np
import tensorflow as tf
from keras import layers, models
from keras.preprocessing.image import ImageDataGenerator

random.seed(1)  # (RPL105 said by RPL101 at the unseeded draw, this call related)
tf.random.set_seed(1)

train_datagen = ImageDataGenerator(
    rescale=1.0 / 255,
    rotation_range=40,
    width_shift_range=0.2,
    height_shift_range=0.2,
    shear_range=0.2,
    zoom_range=0.2,
    horizontal_flip=True,
)
train_generator = train_datagen.flow_from_directory(  # expect: RPL101
    "cats_and_dogs_small/train", target_size=(150, 150), batch_size=32, class_mode="binary",
)
x_extra = np.load("extra_images.npy")
y_extra = np.load("extra_labels.npy")
extra_generator = ImageDataGenerator(rescale=1.0 / 255).flow(x_extra, y_extra, batch_size=32)  # expect: RPL101

model = models.Sequential([
    layers.Conv2D(32, (3, 3), activation="relu", input_shape=(150, 150, 3)),
    layers.MaxPooling2D((2, 2)),
    layers.Flatten(),
    layers.Dense(1, activation="sigmoid"),
])
model.compile(loss="binary_crossentropy", optimizer="rmsprop", metrics=["acc"])
model.fit(train_generator, steps_per_epoch=100, epochs=30)  # (RPL306 said by RPL101: the unseeded library is one cause)
model.fit(extra_generator, steps_per_epoch=10, epochs=1)
