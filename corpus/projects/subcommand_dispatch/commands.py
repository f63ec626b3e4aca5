"""The subcommands `cli.py` dispatches to with `args.func(args)` (issue 25)."""
import torch
from torch import nn


def pretrain(args):
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(2)).cuda()  # expect: RPL302  (no RPL301: no kernel that deterministic mode replaces)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for _ in range(args.steps):
        x = torch.zeros(4, 3, 16, 16).cuda()
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def export(args):
    model = torch.load(args.checkpoint)
    torch.onnx.export(model, torch.zeros(1, 3, 16, 16), "model.onnx")
