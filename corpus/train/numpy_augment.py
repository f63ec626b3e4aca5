"""A model trained on NumPy-augmented features; torch is seeded, NumPy's generator is not.

The augmentation draws from `np.random.default_rng()`, which seeds itself from OS
entropy: the only source of difference between two runs.
"""

import argparse

import numpy as np
import torch
from torch import nn


def make_data(n=256):
    data = np.random.default_rng(7)  # the fixed data set
    x = data.normal(size=(n, 16)).astype(np.float32)
    y = (x[:, :4].sum(axis=1) > 0).astype(np.int64)
    return x, y


def augment(rng, batch):
    """Gaussian jitter and random feature dropout, as in tabular augmentation."""
    noise = rng.normal(scale=0.1, size=batch.shape).astype(np.float32)
    keep = rng.random(batch.shape) > 0.1
    return (batch + noise) * keep


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--out", help="save the trained weights (state dict) here")
    args = parser.parse_args(argv)

    torch.manual_seed(0)
    x, y = make_data()
    rng = np.random.default_rng()  # expect: RPL102
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(args.epochs):
        for start in range(0, len(x), 32):
            batch = torch.from_numpy(augment(rng, x[start:start + 32]))
            targets = torch.from_numpy(y[start:start + 32])
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(batch), targets)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    if args.out:
        torch.save(model.state_dict(), args.out)


if __name__ == "__main__":
    main()
