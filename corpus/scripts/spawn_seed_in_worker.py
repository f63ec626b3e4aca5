"""Look-alike of spawn_seed_in_parent.py: each spawned worker seeds itself (the same seed on
every rank, so the replicas start from the same weights)."""
import argparse

import torch
import torch.multiprocessing as mp
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--seed", default=0, type=int)
parser.add_argument("--world-size", default=2, type=int)


def main():
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    mp.spawn(main_worker, nprocs=args.world_size, args=(args,))


def main_worker(rank, args):
    torch.manual_seed(args.seed)
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
