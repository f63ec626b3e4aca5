"""A Keras GAN trained with `train_on_batch`, one gradient step per call (no `fit`): a
TensorFlow training program, whose GPU kernels need op determinism turned on; it is
seeded, so only the kernels are left (look-alike: keras_gan_train_on_batch_det.py)."""
import numpy as np  # expect: RPL304
import tensorflow as tf
from tensorflow import keras

keras.utils.set_random_seed(7)

generator = keras.Sequential([keras.layers.Dense(64, activation="relu"), keras.layers.Dense(784, activation="tanh")])
discriminator = keras.Sequential([keras.layers.Dense(64, activation="relu"), keras.layers.Dense(1, activation="sigmoid")])
discriminator.compile(optimizer="adam", loss="binary_crossentropy")
discriminator.trainable = False
gan = keras.Sequential([generator, discriminator])
gan.compile(optimizer="adam", loss="binary_crossentropy")

real = np.load("mnist_train.npy").reshape(-1, 784).astype("float32") / 127.5 - 1.0
for step in range(10000):
    noise = np.random.normal(size=(64, 32))
    fake = generator.predict(noise, verbose=0)
    batch = real[np.random.randint(0, len(real), 64)]
    discriminator.train_on_batch(np.concatenate([batch, fake]), np.concatenate([np.ones((64, 1)), np.zeros((64, 1))]))
    gan.train_on_batch(np.random.normal(size=(64, 32)), np.ones((64, 1)))
