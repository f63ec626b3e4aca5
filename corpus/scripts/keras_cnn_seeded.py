"""Keras CNN on CIFAR-10 with the recommended reproducibility setup."""
import numpy as np
import tensorflow as tf
from tensorflow import keras

SEED = 1337
keras.utils.set_random_seed(SEED)
tf.config.experimental.enable_op_determinism()

(x_train, y_train), (x_test, y_test) = keras.datasets.cifar10.load_data()
x_train, x_test = x_train / 255.0, x_test / 255.0
perm = np.random.permutation(len(x_train))
x_train, y_train = x_train[perm], y_train[perm]

train_ds = (
    tf.data.Dataset.from_tensor_slices((x_train, y_train))
    .shuffle(10_000)
    .batch(64)
    .prefetch(tf.data.AUTOTUNE)
)
augment = keras.Sequential([keras.layers.RandomFlip("horizontal"), keras.layers.RandomRotation(0.05)])

inputs = keras.Input(shape=(32, 32, 3))
x = augment(inputs)
for filters in (32, 64, 128):
    x = keras.layers.Conv2D(filters, 3, padding="same", activation="relu")(x)
    x = keras.layers.BatchNormalization()(x)
    x = keras.layers.MaxPooling2D()(x)
x = keras.layers.Flatten()(x)
x = keras.layers.Dropout(0.3)(x)
outputs = keras.layers.Dense(10, activation="softmax")(x)
model = keras.Model(inputs, outputs)

noise_probe = tf.random.stateless_normal((2, 2), seed=[1, 2])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
model.fit(train_ds, epochs=20, validation_data=(x_test, y_test))
print(model.evaluate(x_test, y_test, verbose=0), float(tf.reduce_sum(noise_probe)))
