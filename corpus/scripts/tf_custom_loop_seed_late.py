"""TF2 custom training loop for a regression MLP on synthetic data.

The global TF seed is set only after the model's layers exist, and NumPy is never seeded.
"""
import argparse  # expect: RPL304

import numpy as np
import tensorflow as tf


class MLP(tf.keras.Model):
    def __init__(self, hidden=64):
        super().__init__()
        self.d1 = tf.keras.layers.Dense(hidden, activation="relu")  # expect: RPL101
        self.norm = tf.keras.layers.LayerNormalization()
        self.d2 = tf.keras.layers.Dense(1)  # expect: RPL101

    def call(self, x, training=False):
        return self.d2(self.norm(self.d1(x)))


def make_data(n=4096, dim=16):
    w = np.random.randn(dim, 1).astype("float32")  # expect: RPL101
    x = np.random.uniform(-1.0, 1.0, size=(n, dim)).astype("float32")  # expect: RPL101
    y = x @ w + 0.1 * np.random.standard_normal((n, 1)).astype("float32")  # expect: RPL101
    return x, y


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=2000)
    args = parser.parse_args()

    model = MLP()
    tf.random.set_seed(args.seed)  # (RPL105 said by RPL101 at the unseeded draw, this call related)

    x, y = make_data()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(4096).batch(64).repeat()
    opt = tf.keras.optimizers.Adam(1e-3)
    # stateless ops take their seed explicitly: never a global draw
    jitter = tf.random.stateless_uniform((64, 16), seed=(args.seed, 1), maxval=1e-3)

    @tf.function
    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(xb + jitter, training=True) - yb))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    for i, (xb, yb) in enumerate(ds.take(args.steps)):
        loss = step(xb, yb)
        if i % 200 == 0:
            print(i, float(loss))


if __name__ == "__main__":
    main()
