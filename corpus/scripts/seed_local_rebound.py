"""The look-alike: the local that copies the seed option is bound again before the test
(a fallback), so the test no longer reads the option's default."""
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=None)
args = parser.parse_args()
seed = args.seed
if seed is None:
    seed = 0
seed = int(seed)
if seed is not None:
    torch.manual_seed(seed)
print(torch.randn(3))
