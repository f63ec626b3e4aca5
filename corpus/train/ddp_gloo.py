"""DistributedDataParallel on CPU (gloo), for `torchrun --nproc-per-node 2`.

Unseeded: rank 0's random initialisation is broadcast to the other ranks, and the
DistributedSampler's shuffling seed is fixed, but the initialisation differs per run.
"""

import argparse
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--out", help="save the trained weights (state dict) here (rank 0)")
    args = parser.parse_args(argv)

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    data = torch.Generator().manual_seed(13)
    x = torch.randn(128, 8, generator=data)
    y = (x[:, :2].sum(1) > 0).long()
    dataset = TensorDataset(x, y)
    sampler = DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset, batch_size=16, sampler=sampler)

    model = DistributedDataParallel(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2)))  # expect: RPL101
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for batch, targets in loader:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(batch), targets)
            loss.backward()
            optimizer.step()
        if rank == 0:
            print(f"epoch {epoch}: loss {loss.item():.4f}")
    if args.out and rank == 0:
        torch.save(model.module.state_dict(), args.out)
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    main()
