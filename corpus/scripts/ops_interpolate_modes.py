"""Feature-pyramid decoder trained on CUDA. Which interpolate calls have a deterministic
backward depends on the mode, written as a keyword, a positional argument, a module
constant or a parameter's default: nearest (the default) is deterministic; bicubic and
linear have no deterministic CUDA backward (RPL202). Bilinear and trilinear have one from
torch 2.13 on, which only deterministic mode selects, and this program never turns it on
(RPL301 at the model)."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(3)
np.random.seed(3)
torch.manual_seed(3)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
SMOOTH = "bicubic"
COARSE = "nearest"


def upsample_like(x, ref, mode="bicubic", align_corners=False):
    return F.interpolate(x, size=ref.shape[-2:], mode=mode, align_corners=align_corners)  # expect: RPL202


def resize_nearest(x, ref, mode="nearest"):
    return F.interpolate(x, size=ref.shape[-2:], mode=mode)


class Decoder(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.lateral = nn.Conv2d(ch, ch, 1)
        self.up = nn.Upsample(scale_factor=2)
        self.smooth_up = nn.Upsample(scale_factor=2, mode="trilinear")
        self.head = nn.Conv2d(ch, 1, 1)

    def forward(self, c3, c4, c5, depth):
        p4 = self.lateral(c4) + F.interpolate(c5, scale_factor=2)
        p3 = self.lateral(c3) + F.interpolate(p4, None, 2.0, "bicubic")  # expect: RPL202
        p3 = p3 + resize_nearest(c5, p3) + upsample_like(c5, p3)
        pooled = F.avg_pool2d(p3, 4)
        sharp = F.interpolate(pooled, scale_factor=4, mode=SMOOTH)  # expect: RPL202
        blocky = F.interpolate(pooled, scale_factor=4, mode=COARSE)
        vol = self.smooth_up(depth)
        return self.head(self.up(p3) + F.interpolate(sharp + blocky, scale_factor=2)), vol


model = Decoder().cuda()  # expect: RPL301
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(200):
    c3 = torch.randn(2, 16, 32, 32, device="cuda")
    c4 = torch.randn(2, 16, 16, 16, device="cuda")
    c5 = torch.randn(2, 16, 8, 8, device="cuda")
    depth = torch.randn(2, 1, 4, 8, 8, device="cuda")
    out, vol = model(c3, c4, c5, depth)
    loss = out.square().mean() + vol.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
