"""Transfer learning on a folder of images: ResNet-50 backbone, new head, seeded too late."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, RandomSampler
from torchvision import datasets, models, transforms


def build_model(num_classes, freeze=True):
    model = models.resnet50(weights=models.ResNet50_Weights.IMAGENET1K_V2)  # weights= loads over the drawn init: the head is the first draw
    if freeze:
        for p in model.parameters():
            p.requires_grad = False
    model.fc = nn.Sequential(nn.Dropout(0.2), nn.Linear(model.fc.in_features, num_classes))  # expect: RPL101
    return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("data_dir")
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    weights = models.ResNet50_Weights.IMAGENET1K_V2
    train_ds = datasets.ImageFolder(f"{args.data_dir}/train", transform=weights.transforms())
    model = build_model(len(train_ds.classes))

    torch.manual_seed(args.seed)
    sampler = RandomSampler(train_ds)
    loader = DataLoader(train_ds, batch_size=32, sampler=sampler, num_workers=0)
    optimizer = torch.optim.Adam(model.fc.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    for epoch in range(args.epochs):
        model.train()
        running = 0.0
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            running += loss.item() * x.size(0)
        print(f"epoch {epoch}: loss {running / len(train_ds):.4f}")
    torch.save(model.fc.state_dict(), "head.pt")


if __name__ == "__main__":
    main()
