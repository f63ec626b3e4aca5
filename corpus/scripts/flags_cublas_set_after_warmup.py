"""Deterministic mode turned on after a warm-up phase: the warm-up's matmuls have
started cuBLAS, which read its (unset) workspace variable then; setting it later
changes nothing."""
import os

import torch
import torch.nn as nn

torch.manual_seed(11)
model = nn.Sequential(nn.Linear(128, 128), nn.GELU(), nn.Linear(128, 1)).cuda()
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)


def run(steps):
    for step in range(steps):
        batch = torch.load(f"shards/{step % 10}.pt")
        loss = nn.functional.mse_loss(model(batch["x"].cuda()), batch["y"].cuda())
        opt.zero_grad()
        loss.backward()
        opt.step()


run(20)  # warm-up, nondeterministic on purpose
os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
torch.use_deterministic_algorithms(True)  # expect: RPL303
run(200)
