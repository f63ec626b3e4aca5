"""Hand-rolled data parallelism whose seeding helper offsets the seed by a `rank`
parameter, and the launcher passes the process's rank: each replica starts from other
weights (look-alike: order_rank_seed_helper_default.py, where no call passes a rank)."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn


def seed_all(seed=42, rank=0):
    torch.manual_seed(seed + rank)  # expect: RPL404


def main(local_rank):
    dist.init_process_group("gloo")
    seed_all(7, local_rank)
    model = nn.Linear(16, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        opt.zero_grad()
        model(torch.ones(4, 16)).sum().backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        opt.step()


if __name__ == "__main__":
    main(int(os.environ["LOCAL_RANK"]))
