"""ViT fine-tuning at a higher resolution on CUDA. The checkpoint's position embedding is
resized with bicubic interpolation while the weights are loaded: checkpoint data requires
no grad, so no backward ever runs through that call. The model resizes its own (learned)
position embedding in forward for other input sizes, and that interpolation's backward,
into a parameter, has no deterministic CUDA kernel."""
import argparse
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--finetune", default="deit_small.pth")
parser.add_argument("--size", type=int, default=384)
args = parser.parse_args()
random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
torch.backends.cudnn.deterministic = True


class TinyViT(nn.Module):
    def __init__(self, grid=24, dim=64, classes=10):
        super().__init__()
        self.patch = nn.Conv2d(3, dim, 16, stride=16)
        self.pos_embed = nn.Parameter(torch.zeros(1, dim, grid, grid))
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        tokens = self.patch(x)
        pos = self.pos_embed
        if tokens.shape[-2:] != pos.shape[-2:]:
            pos = F.interpolate(pos, size=tokens.shape[-2:], mode="bicubic", align_corners=False)  # expect: RPL202
        return self.head((tokens + pos).flatten(2).mean(-1))


model = TinyViT(grid=args.size // 16)
checkpoint = torch.load(args.finetune, map_location="cpu")
state = checkpoint["model"]
old_pos = state["pos_embed"]
state["pos_embed"] = F.interpolate(old_pos, size=(args.size // 16, args.size // 16), mode="bicubic", align_corners=False)
model.load_state_dict(state, strict=False)
model = model.cuda()  # (no RPL301: no kernel that deterministic mode replaces)
opt = torch.optim.AdamW(model.parameters(), lr=5e-5)
for step in range(100):
    images = torch.randn(8, 3, args.size, args.size, device="cuda")
    labels = torch.randint(0, 10, (8,), device="cuda")
    loss = F.cross_entropy(model(images), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
