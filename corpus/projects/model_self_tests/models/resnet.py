"""A ResNet for CIFAR (a module of its own, no package): its `__main__` block is the
author's self-test, which builds the net, runs a random batch through it and prints the
output's size. What it shows depends on no value drawn: a demo, nothing to report."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicBlock(nn.Module):
    def __init__(self, planes):
        super().__init__()
        self.conv1 = nn.Conv2d(planes, planes, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)

    def forward(self, x):
        return F.relu(self.bn1(self.conv1(x)) + x)


class ResNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, 64, 3, padding=1, bias=False)
        self.layer = nn.Sequential(BasicBlock(64), BasicBlock(64))
        self.linear = nn.Linear(64, num_classes)

    def forward(self, x):
        out = self.layer(self.stem(x))
        return self.linear(F.adaptive_avg_pool2d(out, 1).flatten(1))


def test():
    net = ResNet()
    y = net(torch.randn(2, 3, 32, 32))
    print(y.size())
    assert y.shape == (2, 10)


if __name__ == "__main__":
    test()
