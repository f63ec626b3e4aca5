"""A small CNN trained on synthetic images with torchvision augmentation; nothing is seeded.

torchvision's random transforms draw from torch's global generator each time they are
applied; v1 `RandomChoice`/`RandomOrder` draw from the `random` module instead.
"""

import argparse

import torch
import torchvision.transforms as T
from torch import nn


def make_images(n=64):
    gen = torch.Generator().manual_seed(3)  # the fixed data set
    images = torch.rand(n, 3, 20, 20, generator=gen)
    labels = (images[:, 0].mean(dim=(1, 2)) > 0.5).long()
    return images, labels


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--out", help="save the trained weights (state dict) here")
    args = parser.parse_args(argv)

    augment = T.Compose([
        T.RandomCrop(16),  # expect: RPL101
        T.RandomHorizontalFlip(),  # expect: RPL101
        T.RandomChoice([  # expect: RPL101
            T.ColorJitter(0.3, 0.3),  # expect: RPL101
            T.Grayscale(3),
        ]),
    ])
    images, labels = make_images()
    model = nn.Sequential(
        nn.Conv2d(3, 8, 3),  # expect: RPL101
        nn.ReLU(),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(8, 2),  # expect: RPL101
    )
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        for start in range(0, len(images), 16):
            batch = torch.stack([augment(image) for image in images[start:start + 16]])
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(batch), labels[start:start + 16])
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    if args.out:
        torch.save(model.state_dict(), args.out)


if __name__ == "__main__":
    main()
