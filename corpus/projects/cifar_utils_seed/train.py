"""ResNet-20 on CIFAR-10 (He et al. 2016), reproducible: seeded before anything else."""
import argparse

import torch
import torch.nn.functional as F

from data import get_loaders, mixup
from models import ResNet20
from utils import AverageMeter, save_checkpoint, set_seed


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--root", default="./data")
    p.add_argument("--epochs", type=int, default=160)
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--lr", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


def run_epoch(model, loader, optimizer, device):
    model.train()
    meter = AverageMeter()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        x, ya, yb, lam = mixup(x, y)
        out = model(x)
        loss = lam * F.cross_entropy(out, ya) + (1 - lam) * F.cross_entropy(out, yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        meter.update(loss.item(), x.size(0))
    return meter.avg


def main():
    args = parse_args()
    set_seed(args.seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"  # (no RPL301: no kernel that deterministic mode replaces)
    train_loader, val_loader, _ = get_loaders(args.root, args.batch_size)
    model = ResNet20().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=1e-4, nesterov=True)
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[80, 120], gamma=0.1)
    for epoch in range(args.epochs):
        loss = run_epoch(model, train_loader, optimizer, device)
        scheduler.step()
        print(f"epoch {epoch:3d} loss {loss:.4f}")
    save_checkpoint({"model": model.state_dict(), "args": vars(args)}, "checkpoints/resnet20.pt")


if __name__ == "__main__":
    main()
