"""Transfer learning on a frozen ImageNet backbone: the backbone's weights are loaded
(`weights="imagenet"` is the default), so only the new head draws its initial weights,
and nothing seeds TensorFlow."""
import numpy as np  # expect: RPL304
from tensorflow import keras
from tensorflow.keras import layers
from tensorflow.keras.applications import vgg16

conv_base = vgg16.VGG16(include_top=False, input_shape=(64, 64, 3))
conv_base.trainable = False
images = vgg16.preprocess_input(np.linspace(0, 255, 8 * 64 * 64 * 3).reshape(8, 64, 64, 3))
labels = np.arange(8) % 2

model = keras.Sequential([
    conv_base,
    layers.Flatten(),
    layers.Dense(1, activation="sigmoid"),  # expect: RPL101
])
model.compile(optimizer="rmsprop", loss="binary_crossentropy")
model.fit(images, labels, epochs=3, batch_size=4, shuffle=False)  # expect: RPL306
