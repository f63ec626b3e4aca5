"""DDP training whose epoch loop calls a helper that advances the sampler, and whose
seed cancels the rank offset the data seeds got (the same init seed on every rank)."""
import argparse
import random

import numpy as np
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=1)
args = parser.parse_args()
dist.init_process_group("gloo")
local_rank = dist.get_rank()
args.seed += local_rank
random.seed(args.seed)
np.random.seed(args.seed)
torch.manual_seed(args.seed - local_rank)


def train_one_epoch(loader, model, optimizer, epoch):
    loader.sampler.set_epoch(epoch)
    for (x,) in loader:
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()


dataset = TensorDataset(torch.arange(64.0).reshape(16, 4))
model = torch.nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(dataset, batch_size=4, sampler=DistributedSampler(dataset))
for epoch in range(5):
    train_one_epoch(loader, model, optimizer, epoch)
