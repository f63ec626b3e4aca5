"""Recommendation model with max-pooled bags and a robust (median) loss; warn_only deterministic mode."""
import os

os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":16:8"

import torch
import torch.nn as nn

torch.manual_seed(3)
torch.use_deterministic_algorithms(True, warn_only=True)

device = "cuda:0"
bags = nn.EmbeddingBag(50_000, 64, mode="max").to(device)  # expect: RPL202
tower = nn.Linear(64, 1).to(device)
opt = torch.optim.Adagrad(list(bags.parameters()) + list(tower.parameters()), lr=0.05)
for step in range(500):
    batch = torch.load(f"batches/{step}.pt")
    items, offsets, clicks = batch["items"].to(device), batch["offsets"].to(device), batch["clicks"].to(device)
    errors = (tower(bags(items, offsets)).squeeze(1) - clicks).abs().view(16, -1)
    per_row, _ = errors.median(dim=1)  # expect: RPL202
    worst = torch.kthvalue(errors.flatten(), k=3).values
    loss = per_row.mean() + 0.1 * worst
    opt.zero_grad()
    loss.backward()
    opt.step()
