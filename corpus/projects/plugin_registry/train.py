import argparse

import torch

from models import build_model

parser = argparse.ArgumentParser()
parser.add_argument("--arch", default="mlp")
parser.add_argument("--hidden", type=int, default=64)
args = parser.parse_args()
torch.manual_seed(0)
model = build_model(args)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(10):
    loss = model(torch.randn(16, 8)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
