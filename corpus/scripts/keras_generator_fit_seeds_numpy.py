"""CIFAR-10 with multi-backend Keras 2.2 (`K.image_dim_ordering()` exists only up to
Keras 2.2.5, which runs on TensorFlow 1 only). `generator.fit(x, seed=0)` calls
`np.random.seed(0)`, so the generator's flips and shuffles are seeded; the layers took
their weights' seeds from NumPy before that, and `fit_generator` shuffles the batches
of the generator's Sequence with Python's `random`, which nothing seeds."""
import numpy as np
from keras import backend as K
from keras.datasets import cifar10
from keras.layers.convolutional import Convolution2D
from keras.layers.core import Dense, Flatten
from keras.models import Sequential
from keras.preprocessing.image import ImageDataGenerator

shape = (3, 32, 32) if K.image_dim_ordering() == "th" else (32, 32, 3)
model = Sequential([
    Convolution2D(16, (3, 3), input_shape=shape, use_bias=False),  # expect: RPL101
    Flatten(),
    Dense(10, activation="softmax", use_bias=False),  # expect: RPL101
])
model.compile(loss="categorical_crossentropy", optimizer="adam")
(x, y), _ = cifar10.load_data()
generator = ImageDataGenerator(horizontal_flip=True, width_shift_range=0.1)
generator.fit(x, seed=0)
model.fit_generator(generator.flow(x, y, batch_size=64), steps_per_epoch=len(x) // 64, epochs=10)  # expect: RPL101
