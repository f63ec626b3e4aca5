"""Models of a small project: train.py builds `NoisyClassifier` only."""
import random

import torch
import torch.nn as nn


class NoisyBackbone(nn.Module):
    """Never built on its own, but `NoisyClassifier` derives from it: its `forward`
    runs for the classifier this program trains."""

    def __init__(self, width):
        super().__init__()
        self.width = width

    def forward(self, x):
        return x + 0.1 * torch.randn_like(x)  # expect: RPL101


class NoisyClassifier(NoisyBackbone):
    def __init__(self, width=32, classes=10):
        super().__init__(width)
        self.head = nn.Linear(width, classes)  # expect: RPL101

    def forward(self, x):
        return self.head(super().forward(x))


class MultiCropTeacher(nn.Module):
    """A self-distillation teacher no program of this project builds (no call to its
    constructor anywhere): its initialisation and its crop choice never run."""

    def __init__(self, width=32):
        super().__init__()
        self.proj = nn.Linear(width, width)
        self.crops = [random.choice([96, 128, 160]) for _ in range(4)]

    def forward(self, x):
        return self.proj(x) * torch.rand(1)
