"""The look-alike of order_rank_seed_helper_passed.py: the helper can offset the seed by
a `rank` parameter, but the only call leaves it at its default 0, so every replica seeds
the same and starts from the same weights."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn


def seed_all(seed=42, rank=0):
    torch.manual_seed(seed + rank)


def main(local_rank):
    dist.init_process_group("gloo")
    seed_all(7)
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
