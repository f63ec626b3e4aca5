"""The sampler is built on every run, but advanced only under `--distributed`; a
second script guards both by the same flag (no finding there)."""
import argparse

import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--distributed", action="store_true")
args = parser.parse_args()
torch.manual_seed(0)
dataset = TensorDataset(torch.arange(64.0).reshape(16, 4))
sampler = DistributedSampler(dataset, num_replicas=1, rank=0)  # expect: RPL404
loader = DataLoader(dataset, batch_size=4, sampler=sampler)
model = torch.nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(5):
    if args.distributed:
        sampler.set_epoch(epoch)
    for (x,) in loader:
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()
