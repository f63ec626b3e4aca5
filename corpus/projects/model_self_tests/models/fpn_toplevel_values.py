"""The look-alike: the file's top-level test prints the feature maps' values, which the
unseeded weights and random input decide."""
import torch
import torch.nn as nn


def test():
    net = nn.Conv2d(3, 8, 3)  # expect: RPL101
    out = net(torch.randn(1, 3, 32, 32))  # expect: RPL101
    print(out.mean())


test()
