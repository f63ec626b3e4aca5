import torch
import torch.nn as nn

from functions import quantize


class Encoder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, x):
        return self.net(x)


class QuantisedAutoencoder(nn.Module):
    def __init__(self, dim=16, codes=64):
        super().__init__()
        self.encoder = Encoder(dim)
        self.codebook = nn.Parameter(torch.randn(codes, dim))
        self.decoder = nn.Linear(dim, 32)

    def forward(self, x):
        return self.decoder(quantize(self.encoder(x), self.codebook))


class Autoencoder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.encoder = Encoder(dim)
        self.decoder = nn.Linear(dim, 32)

    def forward(self, x):
        return self.decoder(self.encoder(x))
