# Multi-backend Keras 2.3 on TensorFlow 2.1, as the project declares: its layers take
# the seeds of their weights and dropout from NumPy, and fit shuffles with NumPy, so
# seeding TensorFlow and `random` is not enough. One finding: NumPy is never seeded.
import os  # expect: RPL304
import random

import numpy as np
import tensorflow as tf
from keras.layers import Dense, Dropout
from keras.models import Sequential

random.seed(3)
tf.random.set_seed(3)

features = np.load(os.path.join("data", "features.npy"))
labels = np.load(os.path.join("data", "labels.npy"))
model = Sequential()
model.add(Dense(64, activation="relu", input_dim=features.shape[1]))  # expect: RPL101
model.add(Dropout(0.3))  # expect: RPL101
model.add(Dense(1, activation="sigmoid"))  # expect: RPL101
model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])
model.fit(features, labels, epochs=10, batch_size=32, validation_split=0.1)  # expect: RPL101
model.save("classifier.h5")
