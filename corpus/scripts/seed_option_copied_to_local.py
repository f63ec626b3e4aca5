"""The seed option is copied into a local before it is tested: the copy is the option,
None by default, so the default run is unseeded. The device option copied the same way
decides the device by its default."""
import argparse

import torch
import torch.nn as nn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--device", default="cpu")  # expect: RPL302
    args = parser.parse_args()
    seed = args.seed
    device = args.device
    if seed is not None:
        torch.manual_seed(seed)  # expect: RPL104
    if device == "cuda":
        torch.backends.cudnn.benchmark = True
    net = nn.Conv2d(3, 8, 3).to(device)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(10):
        loss = net(torch.rand(4, 3, 16, 16, device=device)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
