"""Accelerate's `gather` collects a metric from every process: one argument, so it is
no `Tensor.gather(dim, index)`, and the program trains through no nondeterministic
kernel (look-alike: ops_gather_replay_actions.py, a Q-value gather by action)."""
import os

import torch
import torch.nn as nn
from accelerate import Accelerator
from accelerate.utils import set_seed


class Trainer:
    def __init__(self, model):
        self.accelerator = Accelerator()
        self.model = model
        self.opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

    def step(self, x, y):
        loss = nn.functional.mse_loss(self.model(x), y)
        self.accelerator.backward(loss)
        self.opt.step()
        self.opt.zero_grad()
        return loss.detach()


os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
set_seed(0, deterministic=True)
trainer = Trainer(nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1)))
for step in range(100):
    x = torch.randn(32, 16, device=trainer.accelerator.device)
    loss = trainer.step(x, x.sum(-1, keepdim=True))
    losses = trainer.accelerator.gather(loss.reshape(1))
    if trainer.accelerator.is_main_process:
        print(step, losses.mean().item())
