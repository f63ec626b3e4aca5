"""ImageNet-style launcher: the parent seeds `random` and torch, then either spawns one
worker per GPU (only with `--multiprocessing-distributed`, off by default) or calls the
worker in its own process, where the parent's seeds hold. The default run never spawns:
nothing to report at the spawn. The look-alike is
`spawn_unless_single_process_option.py`."""
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
        mp.spawn(main_worker, nprocs=torch.cuda.device_count(), args=(args,))
    else:
        main_worker(0, args)


if __name__ == "__main__":
    main()
