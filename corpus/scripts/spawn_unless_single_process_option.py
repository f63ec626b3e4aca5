"""The same launcher, but it spawns unless `--single-process` is given: the default run
starts fresh worker processes, which the parent's `torch.manual_seed` does not reach, and
each worker draws its weights and batches from an unseeded torch (the message names
torch only: the worker draws nothing from `random`)."""
import argparse
import random

import torch
import torch.multiprocessing as mp

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--single-process", action="store_true")


def main_worker(rank, args):
    model = torch.nn.Linear(16, 4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        x = torch.randn(32, 16)
        y = torch.randint(0, 4, (32,))
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main():
    args = parser.parse_args()
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    if not args.single_process:
        mp.spawn(main_worker, nprocs=torch.cuda.device_count(), args=(args,))  # expect: RPL101
    else:
        main_worker(0, args)


if __name__ == "__main__":
    main()
