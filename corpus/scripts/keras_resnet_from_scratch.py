"""The same architecture family built without pretrained weights (`weights=None`):
every layer of the network starts from TensorFlow's unseeded initialisers."""
import numpy as np  # expect: RPL304
from tensorflow import keras

model = keras.applications.ResNet50(weights=None, input_shape=(32, 32, 3), classes=10)  # expect: RPL101
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
x = np.linspace(0, 1, 16 * 32 * 32 * 3).reshape(16, 32, 32, 3)
model.fit(x, np.arange(16) % 10, epochs=2, batch_size=8, shuffle=False)  # expect: RPL306
