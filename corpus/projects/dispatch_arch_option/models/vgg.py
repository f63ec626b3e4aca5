"""VGG with a noisy input layer: picked only with `--arch vgg11`."""
import torch
import torch.nn as nn

__all__ = ["VGG", "vgg11"]


class VGG(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.pool = nn.AdaptiveAvgPool2d((7, 7))
        self.classifier = nn.Linear(64 * 7 * 7, num_classes)

    def forward(self, x):
        x = x + 0.01 * torch.randn_like(x)
        return self.classifier(self.pool(self.features(x)).flatten(1))


def vgg11(**kwargs):
    return VGG(**kwargs)
