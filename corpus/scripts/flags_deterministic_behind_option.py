"""A GNN-style training script whose deterministic mode is behind an option that is off by
default (store_true): a default run aggregates messages with CUDA atomic adds. RPL301 says
the flag is set only with the option, and lists the aggregation as its evidence."""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--deterministic", action="store_true")
parser.add_argument("--epochs", type=int, default=5)
args = parser.parse_args()

torch.manual_seed(0)
if args.deterministic:
    torch.use_deterministic_algorithms(True)

device = torch.device("cuda")  # expect: RPL301
lin = nn.Linear(16, 16).to(device)
opt = torch.optim.Adam(lin.parameters(), lr=1e-3)
x = torch.ones(100, 16, device=device)
src = torch.arange(100, device=device) % 7
dst = torch.arange(100, device=device) % 5
for epoch in range(args.epochs):
    out = torch.zeros(100, 16, device=device)
    # the evidence: index_add_ with a repeating index (dst % 5) on CUDA
    out.index_add_(0, dst, lin(x)[src])  # (evidence of the program's RPL301, reported there)
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
