"""A detector's upsampling layer keeps its mode in `self.mode`, and the model builds it
with "bicubic": that backward has no deterministic CUDA kernel, so the call raises under
deterministic mode (look-alike of upsample_mode_attribute.py)."""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class Upsample(nn.Module):
    def __init__(self, scale_factor, mode="nearest"):
        super().__init__()
        self.scale_factor = scale_factor
        self.mode = mode

    def forward(self, x):
        return F.interpolate(x, scale_factor=self.scale_factor, mode=self.mode)  # expect: RPL202


os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
torch.use_deterministic_algorithms(True)
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), Upsample(2, mode="bicubic"), nn.Conv2d(8, 3, 3, padding=1)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(20):
    x = torch.randn(4, 3, 16, 16, device="cuda")
    loss = (model(x) - F.interpolate(x, scale_factor=2)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
