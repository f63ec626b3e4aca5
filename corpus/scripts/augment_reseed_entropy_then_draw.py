"""The look-alike: after the same fixed-seed palette shuffle, the entropy reseed is
followed by the augmentation's NumPy draws, which now differ on every run."""
import sys

import numpy as np


def palette(n):
    colours = list(range(n))
    np.random.seed(10101)
    np.random.shuffle(colours)
    np.random.seed(None)  # expect: RPL103
    return colours


if __name__ == "__main__":
    colours = palette(80)
    images = np.load(sys.argv[1])
    flipped = [img[:, ::-1] if np.random.rand() < 0.5 else img for img in images]
    np.save("augmented.npy", np.stack(flipped))
    print(colours[:3])
