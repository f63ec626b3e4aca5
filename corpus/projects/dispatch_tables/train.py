"""Trains with a learning-rate schedule looked up in a table of the `ops` package; the
package also holds augmentations stored in a table that only `AugmentOp` reads, which
the program builds only with `--augment` (off by default: the augmentations' draws are
not on the default run), and re-exports them with an import continued by a backslash
(an import names, it calls nothing)."""
import argparse

import torch
import torch.nn as nn

import ops

parser = argparse.ArgumentParser()
parser.add_argument("--augment", action="store_true")
args = parser.parse_args()
torch.manual_seed(0)
augment = ops.policy_transform(["shear", "rotate"]) if args.augment else []
model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
schedule = ops.SCHEDULES["cosine"]
for step in range(100):
    for group in optimizer.param_groups:
        group["lr"] = 0.1 * schedule(step, 100)
    batch = torch.ones(8, 4)
    for op in augment:
        batch = op(batch)
    loss = model(batch).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
