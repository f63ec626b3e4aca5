"""Trains the backbone on CUDA with deterministic algorithms on."""
import os

os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"

import torch
from torch import nn

import utils

torch.manual_seed(0)
torch.use_deterministic_algorithms(True)
torch.backends.cudnn.benchmark = False

model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 16)).cuda()
head = nn.Linear(16, 3 * 4 * 4).cuda()
optimizer = torch.optim.SGD(list(model.parameters()) + list(head.parameters()), lr=0.1)
for _ in range(5):
    x = torch.randn(4, 3, 8, 8, device="cuda")
    pred = head(model(x)).view(4, 3, 4, 4)
    target = utils.blur_targets(pred.detach() * 0 + x)
    loss = (utils.blur_targets(pred.repeat(1, 1, 2, 2)) - target).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    utils.grad_norm_clip(model, 1.0)
    optimizer.step()
