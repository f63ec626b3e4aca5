"""Seeding written as a conditional expression whose condition is false by default:
`--seed 0` is the default, and `0` is falsy, so torch is never seeded."""
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--epochs", type=int, default=2)
args = parser.parse_args()

torch.manual_seed(args.seed) if args.seed else None  # expect: RPL104
model = torch.nn.Sequential(torch.nn.Linear(10, 10), torch.nn.ReLU(), torch.nn.Linear(10, 1))
optimizer = torch.optim.Adam(model.parameters())
for epoch in range(args.epochs):
    loss = model(torch.ones(2, 10)).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
