"""Detection-style training script that is single-process by default and DDP under torchrun.

`LOCAL_RANK` comes from the environment with a default of -1: a default run (the command a
user types, no launcher) leaves it unset, so `make_loader` builds no `DistributedSampler`
and no RPL404 is due there (look-alike). The second loader's sampler is built on every run
and shuffles, and the epoch loop never calls its `set_epoch` (positive).
"""
import os

import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

LOCAL_RANK = int(os.getenv("LOCAL_RANK", -1))


def make_loader(dataset, batch_size, rank=-1):
    sampler = None if rank == -1 else DistributedSampler(dataset, shuffle=True)
    return DataLoader(dataset, batch_size=batch_size, sampler=sampler, shuffle=sampler is None)


torch.manual_seed(0)
data = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
train_loader = make_loader(data, 16, rank=LOCAL_RANK)
probe_sampler = DistributedSampler(data, num_replicas=1, rank=0)  # expect: RPL404
probe_loader = DataLoader(data, batch_size=16, sampler=probe_sampler)
model = torch.nn.Linear(8, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    for x, y in train_loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    for x, y in probe_loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
