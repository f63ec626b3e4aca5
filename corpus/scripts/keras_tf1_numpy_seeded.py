"""Multi-backend Keras on TensorFlow 1 (the TF 1 API: `tf.ConfigProto`, `tf.Session`):
its backend draws the seeds of initial weights and dropout from NumPy, and `fit`
shuffles with NumPy, so seeding NumPy is what makes the run repeat: no seeding finding.
Its Dense layers add their biases with bias_add, whose gradient TF 1 computes
nondeterministically on GPU (RPL204, one finding with the other layer related)."""
import numpy as np
import tensorflow as tf
from keras import backend as K
from keras.layers import Dense, Dropout
from keras.models import Sequential

np.random.seed(7)
K.set_session(tf.Session(config=tf.ConfigProto()))
model = Sequential([Dense(16, activation="relu", input_shape=(4,)), Dropout(0.5), Dense(1)])  # expect: RPL204
model.compile(optimizer="sgd", loss="mse")
model.fit(np.zeros((32, 4)), np.zeros(32), epochs=2)
model.save("model.h5")
