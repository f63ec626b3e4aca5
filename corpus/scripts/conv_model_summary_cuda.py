"""Builds a convolutional model on the GPU, runs one forward pass to print its output
shape and parameter count, and runs a backward pass only with `--profile` (off by
default). Nothing is trained on the default run: cuDNN's nondeterministic kernels are
backward ones, so `cudnn.deterministic` would change nothing here (no RPL302)."""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--profile", action="store_true")
args = parser.parse_args()

torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU(), nn.Conv2d(16, 8, 3)).to("cuda")
x = torch.zeros(1, 3, 64, 64, device="cuda")
y = model(x)
print(y.shape, sum(p.numel() for p in model.parameters()))
if args.profile:
    y.sum().backward()
