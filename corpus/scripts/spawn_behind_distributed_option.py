"""ImageNet-style launcher: the parent seeds `random` and torch, then spawns one worker
per GPU with `--multiprocessing-distributed` (off by default) or calls the worker in its
own process. The runs that pass the option start fresh processes that the parent's
seeds do not reach, so it is reported at the spawn although the default run does not
spawn (the seeds are there for every run, and those runs lose them); the message names
torch only, the library the worker draws from (it draws nothing from `random`)."""
import argparse
import random

import torch
import torch.multiprocessing as mp

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--multiprocessing-distributed", action="store_true")


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
    if args.multiprocessing_distributed:
        mp.spawn(main_worker, nprocs=torch.cuda.device_count(), args=(args,))  # expect: RPL101
    else:
        main_worker(0, args)


if __name__ == "__main__":
    main()
