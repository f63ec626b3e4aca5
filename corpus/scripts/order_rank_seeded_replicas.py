"""Hand-rolled data parallelism (gradients all-reduced by hand) seeded with the rank."""
import argparse

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=17)
args = parser.parse_args()

dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(args.seed + rank)  # expect: RPL404
model = nn.Sequential(nn.Linear(20, 20), nn.Tanh(), nn.Linear(20, 2))
data = TensorDataset(torch.randn(512, 20), torch.randint(0, 2, (512,)))
sampler = DistributedSampler(data, seed=args.seed + rank)  # expect: RPL404
loader = DataLoader(data, batch_size=16, sampler=sampler)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    sampler.set_epoch(epoch)
    for x, y in loader:
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
            p.grad /= dist.get_world_size()
        opt.step()
