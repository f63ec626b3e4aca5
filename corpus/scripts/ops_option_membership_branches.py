"""A classifier whose pooling layer depends on the architecture and task options.

Membership tests decide the branch like comparisons do: `"xcit" in args.arch` is false
with the default `--arch vit_small`, so that branch's adaptive max pooling is not this
program's (look-alike); `args.task in ("train", "finetune")` is true with the default
`--task train`, so its adaptive max pooling trains (RPL202: its backward has no
deterministic CUDA kernel).
"""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--arch", default="vit_small")
parser.add_argument("--task", default="train")
args = parser.parse_args()

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"  # expect: RPL302
if "xcit" in args.arch:
    pool = nn.AdaptiveMaxPool2d(3)
elif args.task in ("train", "finetune"):
    pool = nn.AdaptiveMaxPool2d(5)  # expect: RPL202
else:
    pool = nn.AvgPool2d(2)
model = nn.Sequential(nn.Conv2d(3, 4, 3), pool, nn.Flatten(), nn.LazyLinear(10)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    loss = model(torch.randn(2, 3, 16, 16, device=device)).logsumexp(dim=1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
