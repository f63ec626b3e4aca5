"""Fine-tune a torchvision ResNet-18 on CIFAR-10; `--seed` is optional (the common case)."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torchvision
from torch.utils.data import DataLoader, Subset
from torchvision import transforms


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="./data")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--subset", type=int, default=10000, help="train on a random subset")
    parser.add_argument("--seed", type=int, help="random seed (unset: nondeterministic)")
    return parser.parse_args()


def build_loaders(args):
    train_tf = transforms.Compose([
        transforms.RandomCrop(32, padding=4),
        transforms.RandomHorizontalFlip(),
        transforms.ToTensor(),
    ])
    train = torchvision.datasets.CIFAR10(args.data, train=True, download=True, transform=train_tf)
    test = torchvision.datasets.CIFAR10(args.data, train=False, transform=transforms.ToTensor())
    keep = np.random.choice(len(train), args.subset, replace=False)  # expect: RPL101
    train = Subset(train, keep.tolist())
    return (
        DataLoader(train, batch_size=args.batch_size, shuffle=True),
        DataLoader(test, batch_size=256),
    )


def main():
    args = parse_args()
    if args.seed is not None:
        torch.manual_seed(args.seed)  # expect: RPL104  (RPL105 said by RPL101 at the unseeded draw, this call related)

    device = "cuda" if torch.cuda.is_available() else "cpu"  # expect: RPL302  (no RPL301: no kernel that deterministic mode replaces)
    train_loader, test_loader = build_loaders(args)
    model = torchvision.models.resnet18(num_classes=10).to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs)

    for epoch in range(args.epochs):
        model.train()
        for images, labels in train_loader:
            images, labels = images.to(device), labels.to(device)
            optimizer.zero_grad(set_to_none=True)
            loss = criterion(model(images), labels)
            loss.backward()
            optimizer.step()
        scheduler.step()

        model.eval()
        correct = 0
        with torch.no_grad():
            for images, labels in test_loader:
                correct += (model(images.to(device)).argmax(1).cpu() == labels).sum().item()
        print(f"epoch {epoch} acc {correct / len(test_loader.dataset):.4f}")


if __name__ == "__main__":
    main()
