"""A model file that ends by calling its own `test()`, with no `__main__` guard: the test
builds the network, runs a random image through it and prints the size of each output
map. Sizes do not depend on the weights or the input's values: a self-test, no RPL101."""
import torch
import torch.nn as nn


class TinyFPN(nn.Module):
    def __init__(self, channels=64):
        super().__init__()
        self.stem = nn.Conv2d(3, channels, 7, stride=2, padding=3)
        self.down = nn.Conv2d(channels, channels, 3, stride=2, padding=1)
        self.lateral = nn.Conv2d(channels, 32, 1)

    def forward(self, x):
        c1 = self.stem(x)
        c2 = self.down(c1)
        return [self.lateral(c2), self.lateral(self.down(c2))]


def FPN18():
    return TinyFPN(channels=64)


def test():
    net = FPN18()
    fms = net(torch.randn(1, 3, 224, 224))
    for fm in fms:
        print(fm.size())


test()
