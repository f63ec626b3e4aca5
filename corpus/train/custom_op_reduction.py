"""A small classifier whose pooling layer is a custom op that adds in a different order
every run: the CPU stand-in for a GPU kernel that accumulates with atomics.

Everything else is seeded: weights, data and shuffling are the same in every run. The
only nondeterminism is `unordered_sum`, whose float32 summation order comes from the
operating system's entropy, so its rounding (and from there the whole training run)
differs between two runs. `reprolint profile` names the op and the line that calls it.
"""

import argparse
import random

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

# Which of the partial sums is added first depends on scheduling on a GPU; here on
# the OS entropy pool, so that it differs between runs.
_scheduler = random.SystemRandom()  # expect: RPL102


@torch.library.custom_op("reprolint_corpus::unordered_sum", mutates_args=())
def unordered_sum(x: torch.Tensor) -> torch.Tensor:
    """Sum over the last dimension, adding its columns in a per-call random order."""
    columns = list(range(x.shape[-1]))
    _scheduler.shuffle(columns)
    total = torch.zeros(x.shape[:-1], dtype=x.dtype)
    for column in columns:
        total = total + x[..., column]
    return total


@unordered_sum.register_fake
def _(x):
    return x.new_empty(x.shape[:-1])


def _setup_context(ctx, inputs, output):
    ctx.shape = inputs[0].shape


def _backward(ctx, grad):
    return grad.unsqueeze(-1).expand(ctx.shape).clone()


unordered_sum.register_autograd(_backward, setup_context=_setup_context)


class SumPool(nn.Module):
    """Global sum pooling over the last dimension."""

    def forward(self, x):
        return unordered_sum(x)


class Net(nn.Module):
    def __init__(self, features=32, hidden=64, classes=4):
        super().__init__()
        self.embed = nn.Linear(features, hidden * 8)
        self.hidden = hidden
        self.pool = SumPool()
        self.head = nn.Linear(hidden, classes)

    def forward(self, x):
        h = torch.tanh(self.embed(x)).view(x.shape[0], self.hidden, 8)
        return self.head(self.pool(h * 1000.0) / 1000.0)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args(argv)

    torch.manual_seed(0)
    x = torch.randn(256, 32)
    y = (x[:, :4].argmax(1)).long()
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(TensorDataset(x, y), batch_size=args.batch_size, shuffle=True)
    for epoch in range(args.epochs):
        for inputs, labels in loader:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(inputs), labels)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.6f}")


if __name__ == "__main__":
    main()
