"""With no `--seed`, the seed is drawn from `random` before anything seeds it, then
handed to the project's seeding helper: every run seeds all three libraries differently."""
import argparse
import random

import torch
import torch.nn as nn

from seeding import seed_everything


def main(args):
    if args.seed is None:
        args.seed = random.randint(1, 10000)  # expect: RPL103
    seed_everything(args.seed)
    net = nn.Linear(8, 1)
    optimizer = torch.optim.SGD(net.parameters(), lr=args.lr)
    for _ in range(100):
        loss = net(torch.randn(16, 8)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--lr", type=float, default=0.01)
    main(parser.parse_args())
