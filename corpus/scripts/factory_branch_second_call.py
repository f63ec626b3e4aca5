"""A model factory picks the network by depth: the class is built in several branches,
and the default depth (18) takes the second one, so its layers are drawn on a default
run (unseeded)."""
import argparse

import torch
import torch.nn as nn


class ResNet(nn.Module):
    def __init__(self, blocks):
        super().__init__()
        self.stem = nn.Linear(32, 64)  # expect: RPL101
        self.blocks = nn.Sequential(*[nn.Linear(64, 64) for _ in range(blocks)])  # expect: RPL101

    def forward(self, x):
        return self.blocks(self.stem(x))


def generate_model(depth):
    if depth == 10:
        return ResNet(1)
    elif depth == 18:
        return ResNet(2)
    elif depth == 34:
        return ResNet(4)
    raise ValueError(depth)


parser = argparse.ArgumentParser()
parser.add_argument("--depth", type=int, default=18)
args = parser.parse_args()
model = generate_model(args.depth)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.ones(4, 32)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
