"""python -m simclr.train --epochs 100"""
import argparse

import torch
import torch.nn as nn
import torchvision
from torch.utils.data import DataLoader

from .augment import TwoViews, simclr_transform
from .losses import nt_xent
from .utils import seed_everything


class SimCLR(nn.Module):
    def __init__(self, proj_dim=128):
        super().__init__()
        backbone = torchvision.models.resnet18(weights=None)
        feat_dim = backbone.fc.in_features
        backbone.fc = nn.Identity()
        self.backbone = backbone
        self.projector = nn.Sequential(nn.Linear(feat_dim, 512), nn.ReLU(), nn.Linear(512, proj_dim))

    def forward(self, x):
        return self.projector(self.backbone(x))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=100)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args()

    seed_everything(args.seed)
    ds = torchvision.datasets.STL10("data", split="unlabeled", download=True, transform=TwoViews(simclr_transform()))
    loader = DataLoader(ds, batch_size=args.batch_size, shuffle=True, drop_last=True)
    model = SimCLR()
    opt = torch.optim.Adam(model.parameters(), lr=3e-4, weight_decay=1e-6)
    for epoch in range(args.epochs):
        for views, _ in loader:
            z1, z2 = model(views[:, 0]), model(views[:, 1])
            loss = nt_xent(z1, z2)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
