"""Mini-batches shuffled with Python's `random`, which is never seeded (torch is).

`random.shuffle` draws from the global Python RNG, seeded from OS entropy at start-up,
so the batch order, and with it the trained weights, differ from run to run.
"""

import argparse
import random

import torch
from torch import nn


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--out", help="save the trained weights (state dict) here")
    args = parser.parse_args(argv)

    torch.manual_seed(0)  # (RPL105 said by RPL101 at the unseeded draw, this call related)
    data = torch.Generator().manual_seed(1)
    x = torch.randn(256, 16, generator=data)
    y = (x[:, :4].sum(1) > 0).long()
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    indices = list(range(len(x)))
    for epoch in range(args.epochs):
        random.shuffle(indices)  # expect: RPL101
        for start in range(0, len(indices), 32):
            batch = indices[start:start + 32]
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(x[batch]), y[batch])
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    if args.out:
        torch.save(model.state_dict(), args.out)


if __name__ == "__main__":
    main()
