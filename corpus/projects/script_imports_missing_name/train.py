"""`from model import Model` raises ImportError (model.py defines no `Model`): the
script ends there, so the unseeded draws after it never run (no finding here)."""
import torch

from model import Model

model = Model()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.rand(4, 3)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
