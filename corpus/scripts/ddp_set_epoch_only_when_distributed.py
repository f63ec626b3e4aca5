"""The sampler is built on every run, but advanced only under `--distributed`. No
finding: a run with `--distributed` advances it every epoch, and a run without repeats
one order every epoch, the same on every run, so two runs of one command agree. (Set B's
readers judged this form a false positive four times.)"""
import argparse

import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--distributed", action="store_true")
args = parser.parse_args()
torch.manual_seed(0)
dataset = TensorDataset(torch.arange(64.0).reshape(16, 4))
sampler = DistributedSampler(dataset, num_replicas=1, rank=0)
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
