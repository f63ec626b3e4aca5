"""Look-alike: the same conditional expression with a seed that is truthy by default
seeds torch on the default run."""
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=17)
args = parser.parse_args()

torch.manual_seed(args.seed) if args.seed else None
dropout = torch.nn.Dropout(0.5)
model = torch.nn.Sequential(torch.nn.Linear(10, 10), dropout, torch.nn.Linear(10, 1))
optimizer = torch.optim.Adam(model.parameters())
loss = model(torch.ones(2, 10)).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
