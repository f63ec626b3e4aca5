"""A timm-style training script: `random_seed(args.seed, args.rank)` seeds torch, NumPy
and `random` (seed + rank) before the model is built, so nothing here is unseeded."""
import argparse
import random

import numpy as np
import torch
from timm.utils import random_seed

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=42)
parser.add_argument("--rank", type=int, default=0)
args = parser.parse_args()

random_seed(args.seed, args.rank)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    scale = random.uniform(0.8, 1.2)
    x = torch.as_tensor(np.random.rand(8, 16), dtype=torch.float32) * scale
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
