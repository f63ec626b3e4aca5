"""Keras training on a keras.utils.PyDataset, with TensorFlow and NumPy seeded.

fit() shuffles the order of a PyDataset's batches every epoch (shuffle=True is the
default) with Python's random module, which this program never seeds. The validation
set is passed as a tf.data.Dataset, whose order fit() leaves alone.
"""
import keras  # expect: RPL304
import numpy as np
import tensorflow as tf


class Batches(keras.utils.PyDataset):
    def __init__(self, x, y, batch_size):
        super().__init__()
        self.x, self.y, self.batch_size = x, y, batch_size

    def __len__(self):
        return len(self.x) // self.batch_size

    def __getitem__(self, index):
        rows = slice(index * self.batch_size, (index + 1) * self.batch_size)
        return self.x[rows], self.y[rows]


if __name__ == "__main__":
    tf.random.set_seed(3)  # (RPL105 said by RPL101 at the unseeded draw, this call related)
    np.random.seed(3)
    x = np.linspace(-1.0, 1.0, 4096, dtype="float32").reshape(1024, 4)
    y = (x.sum(axis=1) > 0).astype("float32")
    train = Batches(x, y, 32)
    val = tf.data.Dataset.from_tensor_slices((x[:128], y[:128])).batch(32)
    model = keras.Sequential([
        keras.Input((4,)),
        keras.layers.Dense(8, kernel_initializer=keras.initializers.GlorotUniform(seed=1)),
        keras.layers.Dense(1, kernel_initializer="zeros"),
    ])
    model.compile(optimizer="adam", loss="binary_crossentropy")
    model.fit(train, epochs=3, validation_data=val)  # expect: RPL101  (RPL306 said by RPL101: the unseeded library is one cause)
    model.fit(Batches(x, y, 64), epochs=1, shuffle=False)
    model.save("sequence.keras")
