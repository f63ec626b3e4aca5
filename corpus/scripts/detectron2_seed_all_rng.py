"""A detectron2-style training script: `seed_all_rng(1234)` seeds NumPy, `random` and
torch before the model is built, so nothing here is unseeded."""
import random

import numpy as np
import torch
from detectron2.utils.env import seed_all_rng

seed_all_rng(1234)
model = torch.nn.Sequential(torch.nn.Linear(16, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.as_tensor(np.random.rand(32, 16), dtype=torch.float32)
y = torch.tensor([random.randint(0, 1) for _ in range(32)])
loss = torch.nn.functional.cross_entropy(model(x), y)
loss.backward()
optimizer.step()
