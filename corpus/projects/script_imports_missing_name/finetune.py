"""Imports the name the model file does define: its weights and inputs are drawn
unseeded (a look-alike of train.py)."""
import torch

from model import PTModel

model = PTModel()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.rand(4, 3)).pow(2).mean()  # expect: RPL101
    opt.zero_grad()
    loss.backward()
    opt.step()
