"""Look-alike of split_seed_only_with_shuffle.py: the shuffle runs on every run, and only
the seed waits for `--seed`."""
import argparse

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()

ids = np.arange(1000)
if args.seed:
    np.random.seed(args.seed)  # expect: RPL104
np.random.shuffle(ids)
np.save("labelled_ids.npy", ids[:250])
