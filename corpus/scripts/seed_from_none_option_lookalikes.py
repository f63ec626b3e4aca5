"""Look-alikes of a seed read from a None option: the option gets a value before the
seed call, or the seed call is guarded (RPL104's, not here: the default run seeds)."""
import argparse
import random

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int)
parser.add_argument("--data-seed", type=int, default=7)
args = parser.parse_args()

if args.seed is None:
    args.seed = 1234  # a fixed fallback: every default run uses it
np.random.seed(args.seed)
random.seed(args.data_seed)
rows = np.random.permutation(100)
picked = random.sample(range(100), 10)
np.save("rows.npy", rows[picked])
