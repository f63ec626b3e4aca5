"""DETR/DeiT-style entry point: the device comes from an option whose default is CUDA."""
import argparse
import random

import numpy as np
import torch
import torch.nn as nn


def get_args_parser():
    parser = argparse.ArgumentParser("detector training", add_help=False)
    parser.add_argument("--lr", default=1e-4, type=float)
    parser.add_argument("--epochs", default=3, type=int)
    parser.add_argument("--device", default="cuda", help="device to use for training / testing")  # expect: RPL302  (no RPL301: no kernel that deterministic mode replaces)
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
    for _ in range(args.epochs):
        images = torch.zeros(4, 3, 16, 16, device=device)
        loss = model(images).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser("trainer", parents=[get_args_parser()])
    main(parser.parse_args())
