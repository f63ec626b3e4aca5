"""Evaluation through the same launcher with a `main` of its own, which seeds nothing:
its model's weights are drawn unseeded (a look-alike of train.py's `main`). It builds
the loaders with `args.distributed = False`: no sampler, so none lacks `set_epoch`."""
import argparse

import torch
from torch import nn

from data import get_loaders
from train import init_processes


def main(args):
    model = nn.Linear(3, 1)  # expect: RPL101
    with torch.no_grad():
        for x, _ in get_loaders(args):
            print(model(x).sum().item())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args()
    args.distributed = False
    init_processes(0, 1, main, args)
