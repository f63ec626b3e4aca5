"""Trains with a learning-rate schedule looked up in a table of the `ops` package; the
package also holds augmentations stored in a table that only an unbuilt class reads, and
re-exports them with an import continued by a backslash (an import names, it calls
nothing)."""
import torch
import torch.nn as nn

import ops

torch.manual_seed(0)
model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
schedule = ops.SCHEDULES["cosine"]
for step in range(100):
    for group in optimizer.param_groups:
        group["lr"] = 0.1 * schedule(step, 100)
    loss = model(torch.ones(8, 4)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
