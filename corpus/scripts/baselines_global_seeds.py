"""A PPO launcher in the OpenAI Baselines style: `set_global_seeds` (Baselines' helper)
seeds NumPy, Python's `random` and TensorFlow, here from a seed taken from the clock, so
every run shuffles its minibatches differently.

Positive: the clock seed given to the helper (RPL103), nothing else: the shuffles and
the exploration noise draw from generators the helper seeded."""
import random
import time

import numpy as np
import tensorflow as tf
from baselines.common import set_global_seeds


def minibatch_indices(n, size):
    order = np.arange(n)
    np.random.shuffle(order)
    return [order[i:i + size] for i in range(0, n, size)]


def main():
    seed = int(time.time()) % 10000
    set_global_seeds(seed * 100)  # expect: RPL103
    epsilon = 0.1
    for update in range(3):
        for batch in minibatch_indices(256, 64):
            explore = random.random() < epsilon
            print(update, len(batch), explore)
    print(tf.__version__)


if __name__ == "__main__":
    main()
