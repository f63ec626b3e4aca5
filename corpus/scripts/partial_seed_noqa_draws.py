"""A training script that seeds torch but not NumPy, whose author silenced RPL101 on the
NumPy draws (`# noqa: RPL101`, e.g. while triaging): the partial seeding is then reported
once as RPL105 at the seeding call, where the missing `np.random.seed` belongs."""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)  # expect: RPL105
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(100):
    x = torch.from_numpy(np.random.rand(16, 4).astype("float32"))  # noqa: RPL101
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
