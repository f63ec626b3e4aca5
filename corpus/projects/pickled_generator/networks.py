"""A generator whose weights are drawn into local names before they become parameters."""
import torch
import torch.nn as nn


class SynthesisLayer(nn.Module):
    def __init__(self, channels, resolution):
        super().__init__()
        weight = torch.randn([channels, channels, 3, 3]).to(memory_format=torch.channels_last)  # expect: RPL101
        self.weight = nn.Parameter(weight)
        # a persistent buffer is in the state dict (and the pickle): restored on load
        self.register_buffer("noise_const", torch.randn([resolution, resolution]))  # expect: RPL101
        # a non-persistent one is not: drawn anew by every program that builds the layer
        self.register_buffer("jitter", torch.rand([channels]), persistent=False)  # expect: RPL101

    def forward(self, x):
        return nn.functional.conv2d(x, self.weight, padding=1) + self.noise_const + self.jitter[:, None, None]


class Generator(nn.Module):
    def __init__(self, z_dim=16, channels=8, resolution=8):
        super().__init__()
        self.mapping = nn.Linear(z_dim, channels * resolution * resolution)  # expect: RPL101
        self.layer = SynthesisLayer(channels, resolution)
        self.shape = (channels, resolution, resolution)

    def forward(self, z):
        return self.layer(self.mapping(z).reshape(-1, *self.shape))
