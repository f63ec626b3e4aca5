"""RPL404's rank-seeded initialisation: a program that broadcasts rank 0's parameters
itself (`for p in G.parameters(): dist.broadcast(p, src=0)`, as StyleGAN's training
loop does) starts every replica from rank 0's weights, like DDP does."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

SOURCE = '''import torch
import torch.distributed as dist


def train(rank, num_gpus):
    torch.manual_seed(rank)
    G = torch.nn.Linear(4, 4).cuda()
    if num_gpus > 1:
        for param in G.parameters():
            SYNC
    opt = torch.optim.SGD(G.parameters(), lr=0.1)
    G(torch.ones(2, 4).cuda()).sum().backward()
    opt.step()


if __name__ == "__main__":
    dist.init_process_group("nccl")
    train(dist.get_rank(), dist.get_world_size())
'''


@pytest.mark.parametrize("sync, expected", [
    ("torch.distributed.broadcast(param, src=0)", []),
    ("dist.broadcast(param, 0)", []),
    ("dist.broadcast(param, src=1)", []),  # rank 1's weights: the replicas agree too
    ("dist.broadcast(torch.zeros(1).cuda(), src=0)", [6]),  # not the parameters
    ("print(param.shape)", [6]),
])
def test_a_program_that_broadcasts_its_parameters_is_not_reported(sync: str, expected: list) -> None:
    found = check_source(SOURCE.replace("SYNC", sync), "train.py")
    assert [d.span.start_line for d in found if d.code == "RPL404"] == expected
