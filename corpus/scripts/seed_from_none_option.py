"""NumPy-only feature sampling whose seed option has no default: `np.random.seed(None)`
reseeds NumPy from OS entropy, so the default run is unseeded though it looks seeded."""
import argparse

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, help="seed for the feature sampler")
parser.add_argument("--features", type=int, default=16)
parser.add_argument("--out", default="features.npy")
args = parser.parse_args()

np.random.seed(args.seed)  # expect: RPL103
projection = np.random.randn(128, args.features)
np.save(args.out, projection)
