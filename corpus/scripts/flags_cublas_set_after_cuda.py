"""The look-alike: the cuBLAS workspace variable is set after the model moved to the GPU
but before any cuBLAS call (the first matmul of training): in time. No finding."""
import os

import torch
import torch.nn as nn

torch.manual_seed(11)
model = nn.Sequential(nn.Linear(128, 128), nn.GELU(), nn.Linear(128, 1)).cuda()
os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
torch.use_deterministic_algorithms(True)
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
for step in range(200):
    batch = torch.load(f"shards/{step % 10}.pt")
    pred = model(batch["x"].cuda())
    loss = nn.functional.mse_loss(pred, batch["y"].cuda())
    opt.zero_grad()
    loss.backward()
    opt.step()
