# The look-alike: the same multi-backend Keras 2.3 program seeds NumPy, where that Keras
# draws its default seeds and its shuffling: nothing is left unseeded (RPL306 stays quiet).
import os  # expect: RPL304

import numpy as np
from keras.layers import Dense, Dropout
from keras.models import Sequential

np.random.seed(3)
features = np.load(os.path.join("data", "features.npy"))
labels = np.load(os.path.join("data", "labels.npy"))
model = Sequential()
model.add(Dense(64, activation="relu", input_dim=features.shape[1]))
model.add(Dropout(0.3))
model.add(Dense(1, activation="sigmoid"))
model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])
model.fit(features, labels, epochs=10, batch_size=32, validation_split=0.1)
model.save("classifier.h5")
