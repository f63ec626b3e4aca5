"""Look-alike of spawn_seed_in_parent.py: the parent seeds nothing, and each spawned
worker seeds torch itself (the same seed on every rank) before it builds the model."""
import argparse

import torch
import torch.multiprocessing as mp
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--seed", default=0, type=int)
parser.add_argument("--world-size", default=2, type=int)


def main_worker(rank, args):
    torch.manual_seed(args.seed)
    model = nn.Linear(16, 4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        loss = model(torch.ones(8, 16)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    args = parser.parse_args()
    mp.spawn(main_worker, nprocs=args.world_size, args=(args,))
