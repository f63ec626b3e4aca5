"""A sampling program seeding through the early-return helper with an option that
defaults to None: its default run is unseeded."""
import argparse

import torch

from utils2 import seed_everything

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=None)
args = parser.parse_args()
seed_everything(args.seed)
model = torch.nn.Linear(4, 1)
print(model(torch.randn(3, 4)))
