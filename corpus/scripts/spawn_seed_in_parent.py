"""ImageNet-launcher style: main() seeds, then mp.spawn starts the training workers in fresh
interpreters, where the parent's seeds do not exist."""
import argparse
import random

import torch
import torch.multiprocessing as mp
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--seed", default=0, type=int)
parser.add_argument("--world-size", default=2, type=int)


def main():
    args = parser.parse_args()
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    mp.spawn(main_worker, nprocs=args.world_size, args=(args,))  # expect: RPL101


def main_worker(rank, args):
    model = nn.Linear(16, 4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        x = torch.ones(8, 16)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
