"""A small wide ResNet (Zagoruyko & Komodakis 2016; WRN-10-2 here, WRN-28-10 in the
papers) on CIFAR-100-shaped data, with dropout between the convolutions.

The data set is fixed; training is unseeded (initialisation, shuffling, dropout).
"""

import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class WideBlock(nn.Module):
    def __init__(self, in_planes, planes, stride, dropout):
        super().__init__()
        self.bn1 = nn.BatchNorm2d(in_planes)
        self.conv1 = nn.Conv2d(in_planes, planes, 3, 1, 1, bias=False)  # expect: RPL101
        self.dropout = nn.Dropout(dropout)  # expect: RPL101
        self.bn2 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride, 1, bias=False)  # expect: RPL101
        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != planes:
            self.shortcut = nn.Conv2d(in_planes, planes, 1, stride, bias=False)  # expect: RPL101

    def forward(self, x):
        out = self.dropout(self.conv1(torch.relu(self.bn1(x))))
        out = self.conv2(torch.relu(self.bn2(out)))
        return out + self.shortcut(x)


class WideResNet(nn.Module):
    """depth = 6n + 4; stage widths 16k, 32k, 64k."""

    def __init__(self, depth=10, widen=2, num_classes=100, dropout=0.3):
        super().__init__()
        n = (depth - 4) // 6
        widths = [16, 16 * widen, 32 * widen, 64 * widen]
        self.conv1 = nn.Conv2d(3, widths[0], 3, 1, 1, bias=False)  # expect: RPL101
        stages, in_planes = [], widths[0]
        for planes, stride in zip(widths[1:], (1, 2, 2)):
            blocks = []
            for i in range(n):
                blocks.append(WideBlock(in_planes, planes, stride if i == 0 else 1, dropout))
                in_planes = planes
            stages.append(nn.Sequential(*blocks))
        self.stages = nn.Sequential(*stages)
        self.bn = nn.BatchNorm2d(in_planes)
        self.fc = nn.Linear(in_planes, num_classes)  # expect: RPL101

    def forward(self, x):
        out = torch.relu(self.bn(self.stages(self.conv1(x))))
        return self.fc(torch.flatten(nn.functional.adaptive_avg_pool2d(out, 1), 1))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--widen", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--out", help="save the trained weights (state dict) here")
    args = parser.parse_args(argv)

    data = torch.Generator().manual_seed(2016)
    labels = torch.arange(16) % 100
    images = torch.rand(100, 3, 32, 32, generator=data)[labels]
    images = images + 0.5 * torch.randn(16, 3, 32, 32, generator=data)

    model = WideResNet(args.depth, args.widen)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
    loader = DataLoader(TensorDataset(images, labels), batch_size=8, shuffle=True)  # expect: RPL101
    for epoch in range(args.epochs):
        model.train()
        for batch, targets in loader:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(batch), targets)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    if args.out:
        torch.save(model.state_dict(), args.out)


if __name__ == "__main__":
    main()
