"""Saves a grid of generated samples. `visualize` takes an `option`, but its first line
pins it to 0 (the other modes were for experiments), so the random interpolation of
option 2 never runs: nothing is drawn from the unseeded `random` module."""
import random
import sys

import numpy as np


def visualize(samples, option):
    option = 0
    if option == 0:
        np.save("grid.npy", samples[:64])
    elif option == 2:
        i, j = random.randint(0, len(samples) - 1), random.randint(0, len(samples) - 1)
        steps = np.linspace(0, 1, 8)[:, None]
        np.save("interpolation.npy", samples[i] * (1 - steps) + samples[j] * steps)


if __name__ == "__main__":
    visualize(np.load(sys.argv[1]), int(sys.argv[2]))
