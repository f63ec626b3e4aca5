"""The look-alike: `seed_all_rng()` without a seed makes one from the pid, the clock and
`os.urandom`, so every run seeds differently."""
import torch
from detectron2.utils.env import seed_all_rng

seed_all_rng()  # expect: RPL103
model = torch.nn.Linear(16, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
loss = model(torch.ones(4, 16)).sum()
loss.backward()
optimizer.step()
