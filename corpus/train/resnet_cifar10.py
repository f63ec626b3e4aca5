"""ResNet-20/38/56 (He et al. 2016, the CIFAR variants) on CIFAR-10-shaped data.

Miniature: few steps on small batches, so that it runs in seconds on a CPU. The data
set is fixed; training is unseeded (initialisation, shuffling and the random crop/flip
augmentation come from torch's global generator).
"""

import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class BasicBlock(nn.Module):
    def __init__(self, in_planes, planes, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(in_planes, planes, 3, stride, 1, bias=False)  # expect: RPL101
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)  # expect: RPL101
        self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != planes:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_planes, planes, 1, stride, bias=False), nn.BatchNorm2d(planes)  # expect: RPL101
            )

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return torch.relu(out + self.shortcut(x))


class ResNet(nn.Module):
    """depth = 6n + 2: three stages of n basic blocks with 16, 32 and 64 channels."""

    def __init__(self, depth=20, num_classes=10):
        super().__init__()
        if (depth - 2) % 6:
            raise ValueError("depth must be 6n + 2 (20, 32, 38, 44, 56, ...)")
        n = (depth - 2) // 6
        self.conv1 = nn.Conv2d(3, 16, 3, 1, 1, bias=False)  # expect: RPL101
        self.bn1 = nn.BatchNorm2d(16)
        layers, in_planes = [], 16
        for planes, stride in ((16, 1), (32, 2), (64, 2)):
            blocks = []
            for i in range(n):
                blocks.append(BasicBlock(in_planes, planes, stride if i == 0 else 1))
                in_planes = planes
            layers.append(nn.Sequential(*blocks))
        self.layer1, self.layer2, self.layer3 = layers
        self.fc = nn.Linear(64, num_classes)  # expect: RPL101

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        out = self.layer3(self.layer2(self.layer1(out)))
        out = torch.flatten(nn.functional.adaptive_avg_pool2d(out, 1), 1)
        return self.fc(out)


class CifarLike(Dataset):
    """Fixed images with the usual augmentation: random crop (padding 4) and flip."""

    def __init__(self, n, num_classes=10):
        data = torch.Generator().manual_seed(2016)
        templates = torch.rand(num_classes, 3, 32, 32, generator=data)
        self.labels = torch.arange(n) % num_classes
        self.images = templates[self.labels] + 0.5 * torch.randn(n, 3, 32, 32, generator=data)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        image = nn.functional.pad(self.images[index], (4, 4, 4, 4))
        top, left = torch.randint(0, 9, (2,)).tolist()  # expect: RPL101
        image = image[:, top:top + 32, left:left + 32]
        if torch.rand(()) < 0.5:  # expect: RPL101
            image = image.flip(2)
        return image, self.labels[index]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=32)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--out", help="save the trained weights (state dict) here")
    args = parser.parse_args(argv)

    model = ResNet(args.depth)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
    loader = DataLoader(CifarLike(args.samples), batch_size=args.batch_size, shuffle=True)  # expect: RPL101
    for epoch in range(args.epochs):
        model.train()
        for images, labels in loader:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(images), labels)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    if args.out:
        torch.save(model.state_dict(), args.out)


if __name__ == "__main__":
    main()
