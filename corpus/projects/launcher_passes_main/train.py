"""A distributed launcher as PyTorch's tutorial writes it: `init_processes` sets up the
process group and calls the function it is given, here `main`, which seeds first: the
weights it builds are drawn after the seed."""
import argparse

import torch
import torch.distributed as dist
from torch import nn

from data import get_loaders


def main(args):
    torch.manual_seed(args.seed)
    model = nn.Linear(3, 1).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        for x, y in get_loaders(args):
            loss = (model(x.cuda()).squeeze(1) - y.cuda()).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


def init_processes(rank, size, fn, args):
    dist.init_process_group(backend="nccl", init_method="env://", rank=rank, world_size=size)
    fn(args)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=10)
    args = parser.parse_args()
    args.distributed = True
    init_processes(0, 1, main, args)
