"""Keras 2 cats-vs-dogs classifier whose ImageDataGenerator iterators repeat although NumPy
is never seeded: the training iterator is given seed=, the validation iterator neither
shuffles nor augments. A `.flow` method of an unrelated object draws nothing. fit itself
draws from Python's random and TensorFlow, both seeded here, so no RPL306 either (a fit
repeats with those two seeded and NumPy not: tests/libraries)."""
import random  # expect: RPL304

import numpy as np
import tensorflow as tf
from tensorflow.keras import layers, models
from tensorflow.keras.preprocessing.image import ImageDataGenerator


class Pipeline:
    def flow(self, x):
        return [v * 2 for v in x]


random.seed(1)
tf.random.set_seed(1)

train_datagen = ImageDataGenerator(rescale=1.0 / 255, rotation_range=40, horizontal_flip=True)
train_generator = train_datagen.flow_from_directory(
    "cats_and_dogs_small/train", target_size=(150, 150), batch_size=32, class_mode="binary", seed=7,
)
validation_generator = ImageDataGenerator(rescale=1.0 / 255).flow_from_directory(
    "cats_and_dogs_small/validation", target_size=(150, 150), batch_size=32, class_mode="binary", shuffle=False,
)
scaled = Pipeline().flow([1, 2, 3])

model = models.Sequential([
    layers.Conv2D(32, (3, 3), activation="relu", input_shape=(150, 150, 3)),
    layers.MaxPooling2D((2, 2)),
    layers.Flatten(),
    layers.Dense(1, activation="sigmoid"),
])
model.compile(loss="binary_crossentropy", optimizer="rmsprop", metrics=["acc"])
model.fit(train_generator, steps_per_epoch=100, epochs=30, validation_data=validation_generator)
