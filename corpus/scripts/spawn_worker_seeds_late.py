"""Each spawned worker builds its model first and seeds torch only afterwards: the
initial weights come from OS entropy in every process."""
import argparse

import torch
import torch.multiprocessing as mp
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--seed", default=0, type=int)
parser.add_argument("--world-size", default=2, type=int)


def main_worker(rank, args):
    model = nn.Linear(16, 4)  # expect: RPL101
    torch.manual_seed(args.seed)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        loss = model(torch.ones(8, 16)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    args = parser.parse_args()
    mp.spawn(main_worker, nprocs=args.world_size, args=(args,))
