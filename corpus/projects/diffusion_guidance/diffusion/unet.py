"""A tiny denoiser; the `__main__` block checks shapes and that gradients flow."""
import torch
import torch.nn as nn

from .nn import conv_nd, linear


class Denoiser(nn.Module):
    def __init__(self, channels=8):
        super().__init__()
        self.time_embed = nn.Sequential(linear(1, 32), nn.SiLU(), linear(32, channels))
        self.conv = conv_nd(2, channels, channels, 3, padding=1)

    def forward(self, x, t):
        return self.conv(x + self.time_embed(t)[:, :, None, None])


if __name__ == "__main__":
    # A smoke demo of a library module: one backward pass on random input, no optimizer.
    model = Denoiser()
    for size in (8, 16):
        x = torch.randn(2, 8, size, size)
        model(x, torch.rand(2, 1)).pow(2).mean().backward()
    print("ok")
