"""Segmentation head fine-tuning. Full determinism is opt-in via --deterministic."""
import argparse
import os

import numpy as np
import torch
import torch.nn as nn


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--deterministic", action="store_true", help="slow but reproducible")
    p.add_argument("--steps", type=int, default=1000)
    p.add_argument("--num-classes", type=int, default=21)
    return p.parse_args()


class SegHead(nn.Module):
    def __init__(self, in_ch=256, num_classes=21):
        super().__init__()
        self.block = nn.Sequential(
            nn.Conv2d(in_ch, 128, 3, padding=1, bias=False),
            nn.BatchNorm2d(128),
            nn.ReLU(inplace=True),
            nn.Dropout2d(0.1),
            nn.Conv2d(128, num_classes, 1),
        )

    def forward(self, feats):
        return self.block(feats)


if __name__ == "__main__":
    args = get_args()

    # default 42, so this branch runs
    if args.seed is not None:
        np.random.seed(args.seed)

    if args.deterministic:
        os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
        torch.use_deterministic_algorithms(True)
        torch.manual_seed(args.seed)  # expect: RPL104

    head = SegHead(num_classes=args.num_classes)
    opt = torch.optim.SGD(head.parameters(), lr=0.01, momentum=0.9)
    for step in range(args.steps):
        feats = torch.randn(4, 256, 64, 64)
        target = torch.from_numpy(np.random.randint(0, args.num_classes, (4, 64, 64)))
        loss = nn.functional.cross_entropy(head(feats), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            print(step, loss.item())
