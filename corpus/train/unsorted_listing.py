"""Training shards read in `os.listdir` order.

The preprocessing step writes one shard per class range under a unique temporary name
(as `tempfile` does); the training loop reads the folder in the order the file system
lists it, which follows the names' hashes, not their creation order. torch is seeded.
"""

import argparse
import os
import tempfile

import torch
from torch import nn


def write_shards(folder, shards=8, per_shard=32):
    data = torch.Generator().manual_seed(11)
    for i in range(shards):
        x = torch.randn(per_shard, 16, generator=data)
        y = (x[:, :4].sum(1) > 0).long()
        fd, path = tempfile.mkstemp(prefix=f"shard-{i:02d}-", suffix=".pt", dir=folder)
        os.close(fd)
        torch.save({"x": x, "y": y}, path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--out", help="save the trained weights (state dict) here")
    args = parser.parse_args(argv)

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    with tempfile.TemporaryDirectory() as folder:
        write_shards(folder)
        for epoch in range(args.epochs):
            for name in os.listdir(folder):  # expect: RPL402
                shard = torch.load(os.path.join(folder, name))
                optimizer.zero_grad()
                loss = nn.functional.cross_entropy(model(shard["x"]), shard["y"])
                loss.backward()
                optimizer.step()
            print(f"epoch {epoch}: loss {loss.item():.4f}")
    if args.out:
        torch.save(model.state_dict(), args.out)


if __name__ == "__main__":
    main()
