"""A flow's invertible 1x1 convolution: its weight is drawn as a random rotation and kept
as LU factors (parameters and a buffer), all restored by a checkpoint load. The channel
permutation of the shuffle layer is a plain attribute: no load restores it."""
import torch
import torch.nn as nn


class InvConv(nn.Module):
    def __init__(self, channels):
        super().__init__()
        rotation = torch.linalg.qr(torch.randn(channels, channels))[0]
        perm, lower, upper = torch.linalg.lu(rotation)
        scale = torch.diag(upper)
        self.register_buffer("perm", perm)
        self.lower = nn.Parameter(lower)
        self.log_scale = nn.Parameter(torch.log(torch.abs(scale)))
        self.upper = nn.Parameter(torch.triu(upper, 1))

    def forward(self, x):
        weight = self.perm @ self.lower @ (self.upper + torch.diag(torch.exp(self.log_scale)))
        return x @ weight


class Shuffle(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.order = torch.randperm(channels)  # expect: RPL101

    def forward(self, x):
        return x[:, self.order]


class Flow(nn.Module):
    def __init__(self, channels, shuffle=False):
        super().__init__()
        self.mix = Shuffle(channels) if shuffle else InvConv(channels)

    def forward(self, x):
        return self.mix(x)

    def sample(self, n, temperature=0.7):
        z = torch.normal(torch.zeros(n, 4), temperature)  # expect: RPL101
        return self(z)
