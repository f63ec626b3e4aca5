"""Generators by resolution, and a helper module whose constructor draws a buffer."""
import torch
from torch import nn


class PowerIteration(nn.Module):
    def __init__(self, size=8):
        super().__init__()
        self.register_buffer("u", torch.randn(size))


class Generator32(nn.Module):
    def __init__(self, z_dim=16):
        super().__init__()
        self.fc = nn.Linear(z_dim, 3 * 32 * 32)  # expect: RPL101

    def forward(self, z):
        return self.fc(z).view(-1, 3, 32, 32)
