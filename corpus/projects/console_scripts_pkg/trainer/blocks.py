"""The model the command builds: weight init draws from torch's global RNG, reported once
per cause (the command's draw, the related location)."""
from torch import nn


def make_model():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))  # expect: RPL101
