"""Trains on shards sampled by the loader's own seeded generators; every global
generator is seeded first."""
import random

import numpy as np
import torch

import shards

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
shards.seed(0)

model = torch.nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
sampler = shards.EpochShuffle(range(8))
for epoch in range(2):
    sampler.set_epoch(epoch)
    for url in shards.ResampledShards([f"shard-{i}" for i in sampler]):
        x = torch.full((1, 4), float(len(url)))
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
