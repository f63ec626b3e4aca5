"""Deterministic mode turned on late: the cuBLAS workspace variable is set after CUDA started."""
import os

import torch
import torch.nn as nn

torch.manual_seed(11)
model = nn.Sequential(nn.Linear(128, 128), nn.GELU(), nn.Linear(128, 1)).cuda()
os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
torch.use_deterministic_algorithms(True)  # expect: RPL303
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
for step in range(200):
    batch = torch.load(f"shards/{step % 10}.pt")
    pred = model(batch["x"].cuda())
    loss = nn.functional.mse_loss(pred, batch["y"].cuda())
    opt.zero_grad()
    loss.backward()
    opt.step()
