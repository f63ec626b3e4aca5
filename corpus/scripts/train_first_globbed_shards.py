"""Trains on the shards a glob finds, taking the first four in the file system's order:
which shards train differs between machines (RPL402). (The look-alike is
`projects/cuda_ops_build`: a packaging script's globs order only the compiler's sources.)"""
import glob

import torch

torch.manual_seed(0)
shards = glob.glob("data/shard_*.pt")  # expect: RPL402
model = torch.nn.Linear(16, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for path in shards[:4]:
    x = torch.load(path)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
