"""Companion of device_option_default_cuda.py: the device option defaults to the CPU, so the
default run is on the CPU, but `--device cuda` trains on the GPU: the determinism-flag rules
report it at the option, naming the flag (issue 25). The `--gpu` index option is only a
number (it selects nothing by itself)."""
import argparse
import random

import numpy as np
import torch
import torch.nn as nn


def get_args_parser():
    parser = argparse.ArgumentParser("detector training", add_help=False)
    parser.add_argument("--lr", default=1e-4, type=float)
    parser.add_argument("--device", default="cpu", help="cpu, or cuda to train on a GPU")  # expect: RPL302  (no RPL301: no kernel that deterministic mode replaces)
    parser.add_argument("--gpu", default=0, type=int)
    parser.add_argument("--seed", default=42, type=int)
    return parser


def main(args):
    device = torch.device(args.device)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    random.seed(args.seed)
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(2))
    model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    images = torch.zeros(4, 3, 16, 16, device=device)
    loss = model(images).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


if __name__ == "__main__":
    main(get_args_parser().parse_args())
