"""Small segmentation net: bicubic upsampling, reflection padding and global pooling on CUDA,
trained with a per-pixel cross-entropy (an (N, H, W) mask target: a spatial loss). Global
pooling to size 1 is a mean in torch (no finding); pooling to a 4x4 grid is not."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

SEED = 7
random.seed(SEED)
np.random.seed(SEED)
torch.manual_seed(SEED)
torch.use_deterministic_algorithms(True)  # expect: RPL303


class SegNet(nn.Module):
    def __init__(self, classes=21):
        super().__init__()
        self.pad = nn.ReflectionPad2d(1)  # expect: RPL202
        self.enc = nn.Conv2d(3, 32, 3)
        self.ctx = nn.AdaptiveAvgPool2d(1)  # global pooling: computed as a mean, deterministic
        self.grid = nn.AdaptiveAvgPool2d(4)  # expect: RPL202
        self.head = nn.Conv2d(64, classes, 1)

    def forward(self, x):
        feats = F.relu(self.enc(self.pad(x)))
        ctx = self.ctx(feats).expand_as(feats) + F.interpolate(self.grid(feats), size=feats.shape[-2:])
        low = self.head(torch.cat([feats, ctx], 1))
        return F.interpolate(low, size=x.shape[-2:], mode="bicubic", align_corners=False)  # expect: RPL202


model = SegNet().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for step in range(1000):
    image = torch.from_numpy(np.random.rand(2, 3, 64, 64).astype("float32")).cuda()
    mask = torch.from_numpy(np.random.randint(0, 21, (2, 64, 64))).cuda()
    flip = random.random() < 0.5
    if flip:
        image, mask = image.flip(-1), mask.flip(-1)
    loss = F.cross_entropy(model(image), mask)  # expect: RPL202
    opt.zero_grad()
    loss.backward()
    opt.step()
