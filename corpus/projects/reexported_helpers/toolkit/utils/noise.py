import torch


def add_noise(x, scale=0.1):
    return x + scale * torch.randn_like(x)  # expect: RPL101
