"""A training script named like a test (`*_test.py`: "train, then test"): a main guard,
no test function or class, so no test runner collects it: it is a program."""
import argparse

import torch
from torch import nn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 2))  # expect: RPL101
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(args.epochs):
        x = torch.randn(64, 16)  # expect: RPL101
        y = torch.randint(0, 2, (64,))  # expect: RPL101
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save(model.state_dict(), "model.pt")


if __name__ == "__main__":
    main()
