"""Seeds torch first, then builds the network: the factories' layers draw after the seed
(the lambdas run when the cells call them, not when operations.py is imported)."""
import argparse

import torch
import torch.nn as nn

from search.operations import Cell

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=2)
args = parser.parse_args()

torch.manual_seed(args.seed)
net = nn.Sequential(Cell(["conv_3x3", "sep_conv_3x3", "avg_pool_3x3"], 16), nn.AdaptiveAvgPool2d(1), nn.Flatten())
optimizer = torch.optim.SGD(net.parameters(), lr=0.025)
for step in range(10):
    loss = net(torch.ones(8, 16, 32, 32)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
