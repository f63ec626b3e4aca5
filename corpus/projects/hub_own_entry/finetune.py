"""Trains the project's `tiny_scratch` entry, which by its hubconf.py default draws its
weights and keeps them: torch is never seeded, so every run starts elsewhere."""
import sys

import torch

model = torch.hub.load(".", "tiny_scratch", source="local")  # expect: RPL101
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
data, labels = torch.load(sys.argv[1])
for _ in range(10):
    loss = torch.nn.functional.cross_entropy(model(data), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
