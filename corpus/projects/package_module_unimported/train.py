import argparse

import torch

from segkit import get_dataset

parser = argparse.ArgumentParser()
parser.add_argument("--root", default="data/ade")
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()

torch.manual_seed(args.seed)
data = get_dataset("ade", args.root)
print(len(data))
