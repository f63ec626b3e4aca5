from tensorflow import keras
from tensorflow.keras import layers


def build_model(num_classes, input_shape=(180, 180, 3)):
    augmentation = keras.Sequential(
        [layers.RandomFlip("horizontal"), layers.RandomRotation(0.1), layers.RandomZoom(0.1)]
    )
    inputs = keras.Input(shape=input_shape)
    x = augmentation(inputs)
    x = layers.Rescaling(1.0 / 255)(x)
    for filters in (16, 32, 64):
        x = layers.Conv2D(filters, 3, padding="same", activation="relu")(x)
        x = layers.MaxPooling2D()(x)
    x = layers.Dropout(0.2)(x)
    x = layers.Flatten()(x)
    x = layers.Dense(128, activation="relu")(x)
    outputs = layers.Dense(num_classes)(x)
    return keras.Model(inputs, outputs)
