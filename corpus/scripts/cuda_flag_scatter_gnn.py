"""A message-passing model that runs on the GPU only with `--cuda` (store_true): a CUDA
program for the flag rules. It aggregates with `scatter_add` (atomic adds on CUDA), so
RPL301 reports it at the `.cuda()` the flag selects, naming the flag."""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--cuda", action="store_true")
args = parser.parse_args()
torch.manual_seed(0)
lin = nn.Linear(8, 8)
if args.cuda:
    lin = lin.cuda()  # expect: RPL301
device = next(lin.parameters()).device
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
x = torch.ones(50, 8, device=device)
dst = (torch.arange(50, device=device) % 9).unsqueeze(1).expand(-1, 8)
for epoch in range(20):
    out = torch.zeros(9, 8, device=device).scatter_add(0, dst, lin(x))
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
