"""A baselines-style seeding helper given an option that defaults to None: every seeder
it calls takes None as "seed from entropy" (TensorFlow's global seed is cleared), so
the default run is unseeded while the code reads as seeded."""
import argparse
import random

import numpy as np
import tensorflow as tf


def set_global_seeds(i):
    rank = 0
    myseed = i + 1000 * rank if i is not None else None
    tf.compat.v1.set_random_seed(myseed)
    np.random.seed(myseed)
    random.seed(myseed)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", help="RNG seed", type=int, default=None)
    parser.add_argument("--steps", type=int, default=1000)
    args = parser.parse_args()
    set_global_seeds(args.seed)  # expect: RPL103
    noise = np.random.normal(size=(args.steps, 4))
    weights = tf.Variable(tf.random.normal([4, 2]))
    print(float(tf.reduce_sum(tf.matmul(noise.astype("float32"), weights))))


if __name__ == "__main__":
    main()
