"""A split maker: `--seed 0` (the default) keeps the file's order and draws nothing;
another seed seeds NumPy and shuffles. A default run is the same every time."""
import argparse

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0, help="0: no shuffling")
args = parser.parse_args()

ids = np.arange(1000)
if args.seed:
    np.random.seed(args.seed)
    np.random.shuffle(ids)
np.save("labelled_ids.npy", ids[:250])
