"""VGG-11 (not used by main.py; star-imported next to SimpleDLA)."""
import torch.nn as nn


class VGG(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Linear(64, 10)
