"""The look-alike: the same multi-backend Keras program on TensorFlow 1, seeding only
Python's `random` and TensorFlow's graph, neither of which its Keras draws from."""
import random

import numpy as np
import tensorflow as tf
from keras import backend as K
from keras.layers import Dense, Dropout
from keras.models import Sequential

random.seed(7)
tf.set_random_seed(7)
K.set_session(tf.Session(config=tf.ConfigProto()))
model = Sequential([Dense(16, activation="relu", input_shape=(4,)), Dropout(0.5), Dense(1)])  # expect: RPL101, RPL204
model.compile(optimizer="sgd", loss="mse")
model.fit(np.zeros((32, 4)), np.zeros(32), epochs=2)  # expect: RPL101 (shuffles with NumPy)
model.save("model.h5")
