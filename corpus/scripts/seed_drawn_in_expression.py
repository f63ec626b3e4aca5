"""A seed option that falls back to a draw, written as an expression: without `--seed`
(the default) the seed differs on every run."""
import argparse
import random

import numpy as np
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int)
parser.add_argument("--workers-seed", type=int, default=7)
args = parser.parse_args()

args.seed = random.randint(1, 10000) if args.seed is None else args.seed  # expect: RPL103
torch.manual_seed(args.seed)
worker_seed = args.workers_seed or 0
np.random.seed(worker_seed)
random.seed(args.seed)
print(torch.randn(3), np.random.rand(2), random.random())
