"""Candidate operations of an architecture search, as a table of factories: each lambda
builds its layer (drawing its initial weights) only when a cell calls it."""
import torch.nn as nn

OPS = {
    "none": lambda C, stride: nn.Identity(),
    "avg_pool_3x3": lambda C, stride: nn.AvgPool2d(3, stride=stride, padding=1),
    "conv_3x3": lambda C, stride: nn.Sequential(
        nn.ReLU(inplace=False), nn.Conv2d(C, C, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(C)
    ),
    "sep_conv_3x3": lambda C, stride: nn.Sequential(
        nn.Conv2d(C, C, 3, stride=stride, padding=1, groups=C, bias=False), nn.Conv2d(C, C, 1, bias=False)
    ),
}


class Cell(nn.Module):
    def __init__(self, genotype, C):
        super().__init__()
        self.ops = nn.ModuleList([OPS[name](C, 1) for name in genotype])

    def forward(self, x):
        return sum(op(x) for op in self.ops)
