"""A classic example-script CLI: `--cuda` is a `store_true` flag, so the default run is on
the CPU, but `python train.py --cuda` trains on the GPU. The determinism-flag rules report
the GPU line and name the flag; autotuning written in the program is reported too
(issue 25). Seeding is judged on the default run (seeded here)."""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser(description="MNIST-style example")
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--cuda", action="store_true", help="enables CUDA training")
args = parser.parse_args()

torch.manual_seed(1)
torch.backends.cudnn.benchmark = True  # expect: RPL203
device = torch.device("cpu")
model = nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 26 * 26, 10))
if args.cuda:
    model = model.cuda()  # expect: RPL302  (no RPL301: no kernel that deterministic mode replaces)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(args.epochs):
    images = torch.zeros(4, 1, 28, 28)
    loss = model(images).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
