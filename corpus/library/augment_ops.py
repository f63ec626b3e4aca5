"""Augmentation ops shared by several experiments (library code: nothing imports it here)."""
import random

import numpy as np
import torch
import torch.nn as nn


class RandomErasing:
    def __init__(self, p=0.5, area=(0.02, 0.2)):
        self.p, self.area = p, area
        self.rng = random.Random()  # expect: RPL102

    def __call__(self, img: torch.Tensor) -> torch.Tensor:
        if self.rng.random() > self.p:
            return img
        _, h, w = img.shape
        eh = int(h * self.rng.uniform(*self.area) ** 0.5)
        ew = int(w * self.rng.uniform(*self.area) ** 0.5)
        top, left = self.rng.randint(0, h - eh), self.rng.randint(0, w - ew)
        img = img.clone()
        img[:, top : top + eh, left : left + ew] = torch.rand(img.shape[0], eh, ew)
        return img


class CutMix:
    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def __call__(self, x, y):
        lam = np.random.beta(self.alpha, self.alpha)
        perm = torch.randperm(x.size(0))
        h, w = x.shape[-2:]
        ch, cw = int(h * (1 - lam) ** 0.5), int(w * (1 - lam) ** 0.5)
        cy, cx = random.randint(0, h - ch), random.randint(0, w - cw)
        x = x.clone()
        x[..., cy : cy + ch, cx : cx + cw] = x[perm][..., cy : cy + ch, cx : cx + cw]
        return x, y, y[perm], 1 - ch * cw / (h * w)


class NoisyLinear(nn.Module):
    """Linear layer with learned noise (NoisyNets); draws fresh noise every forward."""

    def __init__(self, d_in, d_out, sigma0=0.5):
        super().__init__()
        self.inner = nn.Linear(d_in, d_out)
        self.sigma = nn.Parameter(torch.full((d_out, d_in), sigma0 / d_in**0.5))
        self.gen = torch.Generator()

    def reset_noise(self):
        gen = torch.Generator()
        gen.seed()  # expect: RPL102
        self.gen = gen

    def forward(self, x):
        eps = torch.randn(self.sigma.shape, generator=self.gen)
        return self.inner(x) + x @ (self.sigma * eps).t()
