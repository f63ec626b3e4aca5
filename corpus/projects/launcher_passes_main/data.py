"""The loaders every script builds; a distributed run shards them with a sampler."""
import torch
from torch.utils.data import DataLoader, TensorDataset


def get_loaders(args):
    data = TensorDataset(torch.zeros(64, 3), torch.zeros(64))
    sampler = None
    if args.distributed:
        sampler = torch.utils.data.distributed.DistributedSampler(data)  # expect: RPL404
    return DataLoader(data, batch_size=8, shuffle=sampler is None, sampler=sampler)
