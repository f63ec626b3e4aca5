"""Keras layers and calls that look random but draw from no global RNG.

Constant initialisers ("zeros", "ones", "identity", Constant/Zeros/Ones/Identity), an
initialiser given seed=, Dropout and GaussianNoise with rate 0 (Keras makes no seed
generator for them), ImageNet preprocessing, and fit() on a tf.data.Dataset (Keras
ignores shuffle= there: the dataset's own order applies, and it is not shuffled).
"""
import keras  # expect: RPL304
import numpy as np
import tensorflow as tf
from keras.applications.vgg19 import preprocess_input

images = np.linspace(0.0, 255.0, 64 * 8 * 8 * 3, dtype="float32").reshape(64, 8, 8, 3)
labels = (np.arange(64) % 2).astype("float32")
images = preprocess_input(images)
features = keras.applications.resnet50.preprocess_input(images)

train_ds = tf.data.Dataset.from_tensor_slices((features, labels)).batch(16)

model = keras.Sequential([
    keras.Input((8, 8, 3)),
    keras.layers.Conv2D(4, 3, kernel_initializer="zeros", bias_initializer="ones"),
    keras.layers.Dropout(0.0),
    keras.layers.Flatten(),
    keras.layers.Dense(144, kernel_initializer="identity"),
    keras.layers.GaussianNoise(0.0),
    keras.layers.Dense(16, kernel_initializer=keras.initializers.Constant(0.05)),
    keras.layers.Dropout(rate=0),
    keras.layers.Dense(8, kernel_initializer=keras.initializers.Zeros(), bias_initializer=keras.initializers.Ones()),
    keras.layers.Dense(1, kernel_initializer=keras.initializers.HeNormal(seed=3)),
])
model.compile(optimizer="sgd", loss="mse")
model.fit(train_ds, epochs=2, shuffle=True)  # expect: RPL306
model.save("lookalikes.keras")
