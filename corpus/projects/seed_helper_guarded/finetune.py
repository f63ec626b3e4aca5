"""The same helper given an option that defaults to None: the default run skips every
seed (one cause, reported at each seeding call the guard skips)."""
import argparse

import torch

from utils import set_seed

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int)
args = parser.parse_args()
set_seed(args.seed)
model = torch.nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss = model(torch.ones(2, 4)).sum()
optimizer.zero_grad()
loss.backward()
optimizer.step()
