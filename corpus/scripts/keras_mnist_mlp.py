"""Keras MLP on MNIST, straight from a tutorial: no seed anywhere."""
import tensorflow as tf  # expect: RPL304
from tensorflow import keras
from tensorflow.keras import layers

BATCH = 128
EPOCHS = 12


def load_data():
    (x_train, y_train), (x_test, y_test) = keras.datasets.mnist.load_data()
    x_train = x_train.reshape(-1, 784).astype("float32") / 255.0
    x_test = x_test.reshape(-1, 784).astype("float32") / 255.0
    return (x_train, y_train), (x_test, y_test)


def make_model():
    model = keras.Sequential(
        [
            keras.Input(shape=(784,)),
            layers.Dense(512, activation="relu"),  # expect: RPL101
            layers.BatchNormalization(),
            layers.Dropout(0.2),  # expect: RPL101
            layers.Dense(256, activation="relu"),  # expect: RPL101
            layers.Dense(10, activation="softmax"),  # expect: RPL101
        ]
    )
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


if __name__ == "__main__":
    (x_train, y_train), (x_test, y_test) = load_data()

    # An op-level seed makes this one draw reproducible even with no global seed.
    probe = tf.random.uniform((4, 784), seed=7)
    print("probe mean", float(tf.reduce_mean(probe)))

    val = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(BATCH)
    model = make_model()
    model.fit(x_train, y_train, batch_size=BATCH, epochs=EPOCHS, shuffle=True, validation_data=val)  # expect: RPL101
    model.fit(x_train, y_train, batch_size=BATCH, epochs=1)  # expect: RPL101
    loss, acc = model.evaluate(x_test, y_test, verbose=0)
    print(f"test accuracy {acc:.4f}")
