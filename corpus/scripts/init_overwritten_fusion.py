"""Folds a BatchNorm into the convolution before it, seeding nothing.

`fuse` builds a Conv2d and copies both its weight and its bias from the trained layers,
so the values its constructor drew never reach a result (no finding). `widen` copies
only the weight: the bias keeps the unseeded draw (RPL101)."""
import torch
import torch.nn as nn


def fuse(conv, bn):
    fused = (
        nn.Conv2d(conv.in_channels, conv.out_channels, kernel_size=conv.kernel_size, bias=True)
        .requires_grad_(False)
        .to(conv.weight.device)
    )
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    fused.weight.copy_(conv.weight * scale.view(-1, 1, 1, 1))
    fused.bias.copy_(bn.bias - bn.running_mean * scale)
    return fused


def widen(conv):
    wide = nn.Conv2d(conv.in_channels, conv.out_channels, kernel_size=conv.kernel_size)  # expect: RPL101
    wide.weight.data = conv.weight.data.clone()
    return wide


if __name__ == "__main__":
    conv = nn.Conv2d(3, 8, 3)  # expect: RPL101
    bn = nn.BatchNorm2d(8).eval()
    with torch.no_grad():
        print(fuse(conv, bn), widen(conv))
