"""Time-series forecasting that imports its model module by name
(`importlib.import_module(f"models.{args.model}")`, Time-Series-Library style): the
default run builds models/dlinear.py's Model only."""
import argparse
import importlib

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="dlinear")
parser.add_argument("--seq_len", type=int, default=96)
parser.add_argument("--pred_len", type=int, default=24)
args = parser.parse_args()

device = torch.device("cuda")
module = importlib.import_module(f"models.{args.model}")
model = module.Model(args.seq_len, args.pred_len).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(100):
    x = torch.zeros(32, args.seq_len, device=device)
    y = torch.zeros(32, args.pred_len, device=device)
    loss = (model(x) - y).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
