"""The autoencoder configs/ae.yaml names by `target:`; its `params:` turn the noise
buffer on. Its weights come from the checkpoint the script loads; its sampling draws."""
import torch
from torch import nn


class AutoEncoder(nn.Module):
    def __init__(self, ch=32, use_noise=False):
        super().__init__()
        self.enc = nn.Conv2d(3, ch, 3)
        if use_noise:
            self.noise = torch.randn(ch)  # expect: RPL101

    def sample(self, n):
        return torch.randn(n, 3, 8, 8)  # expect: RPL101
