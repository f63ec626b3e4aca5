"""A training script whose label ids come from a set of strings in a helper module.

The project has silenced RPL401 at that site (`# noqa: RPL401`: it fixes the hash seed in
its launcher, which no static check sees), so RPL401 says nothing there; the dependence on the hash seed is then reported once for the
program (RPL307), at its first statement. Look-alike: ``prepare.py`` takes the same set
order but RPL401 is not silenced there, so RPL401 reports it in place and RPL307 does not
repeat it (one cause, one finding).
"""
import torch  # expect: RPL307
from torch import nn

from labels import class_ids

torch.manual_seed(0)
ids = class_ids("labels.txt")
model = nn.Linear(4, len(ids))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.ones(8, 4)
y = torch.tensor([ids[name] for name in sorted(ids)] * 2)[:8]
for _ in range(3):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
