"""Seeds through the project's `timm.utils` (not the library's): everything is seeded."""
import torch
from datasets import build_dataset
from timm import utils

utils.random_seed(42)
data = torch.tensor(build_dataset(64)).reshape(16, 4)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(10):
    opt.zero_grad()
    model(data).sum().backward()
    opt.step()
