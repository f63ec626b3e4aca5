"""The same seeding, but straight from an option that defaults to None."""
import argparse
import random

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, help="seed (none: a new one every run)")
args = parser.parse_args()
random.seed(args.seed)  # expect: RPL103
np.random.seed(args.seed)  # expect: RPL103
print(random.random(), np.random.rand())
