"""A CIFAR ResNet, one of the architectures `train.py --arch` picks by name."""
import torch.nn as nn
import torch.nn.functional as F

__all__ = ["ResNet", "resnet20"]


class ResNet(nn.Module):
    def __init__(self, depth, num_classes=10):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3, padding=1, bias=False)  # expect: RPL101
        self.blocks = nn.Sequential(*[nn.Conv2d(16, 16, 3, padding=1) for _ in range((depth - 2) // 6)])  # expect: RPL101
        self.fc = nn.Linear(16, num_classes)  # expect: RPL101

    def forward(self, x):
        out = F.relu(self.blocks(self.conv(x)))
        out = F.adaptive_avg_pool2d(out, 1).flatten(1)
        return self.fc(out)


def resnet20(**kwargs):
    return ResNet(20, **kwargs)
