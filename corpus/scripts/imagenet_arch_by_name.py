"""ImageNet-style launcher: the architecture is picked by name from torchvision's model
registry (`models.__dict__[args.arch]`), the classic recipe; torch is never seeded, so
the weights start differently on every run."""
import argparse

import torch
import torch.nn as nn
import torchvision.models as models

model_names = sorted(
    name for name in models.__dict__
    if name.islower() and not name.startswith("__") and callable(models.__dict__[name])
)

parser = argparse.ArgumentParser()
parser.add_argument("--arch", default="resnet18", choices=model_names)
parser.add_argument("--epochs", type=int, default=90)


def main():
    args = parser.parse_args()
    model = models.__dict__[args.arch]().cuda()  # expect: RPL101, RPL302  (no RPL301: no kernel that deterministic mode replaces)
    criterion = nn.CrossEntropyLoss().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for _ in range(args.epochs):
        images, target = torch.zeros(8, 3, 224, 224).cuda(), torch.zeros(8, dtype=torch.long).cuda()
        loss = criterion(model(images), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
