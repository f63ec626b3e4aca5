"""Sampler and set_epoch both behind `if args.distributed:`, or set_epoch behind a test
of the sampler itself: advanced whenever built."""
import argparse

import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--distributed", action="store_true")
args = parser.parse_args()
torch.manual_seed(0)
dataset = TensorDataset(torch.arange(64.0).reshape(16, 4))
sampler = None
if args.distributed:
    sampler = DistributedSampler(dataset)
loader = DataLoader(dataset, batch_size=4, sampler=sampler, shuffle=sampler is None)
model = torch.nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(5):
    if args.distributed:
        sampler.set_epoch(epoch)
    if isinstance(loader.sampler, DistributedSampler):
        loader.sampler.set_epoch(epoch)
    for (x,) in loader:
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()
