"""CIFAR training whose network is picked by name from the models package
(`models.__dict__[args.arch]`), bearpaw/pytorch-classification style. The default
architecture is resnet20: its layers are the program's first draws; VGG's pooling and
noise run only with `--arch vgg11`."""
import argparse

import torch
import torch.nn.functional as F

import models

model_names = sorted(name for name in models.__dict__ if name.islower() and not name.startswith("__"))

parser = argparse.ArgumentParser()
parser.add_argument("--arch", default="resnet20", choices=model_names)
parser.add_argument("--epochs", type=int, default=2)
args = parser.parse_args()

model = models.__dict__[args.arch](num_classes=10)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(args.epochs):
    inputs, targets = torch.zeros(8, 3, 32, 32), torch.zeros(8, dtype=torch.long)
    loss = F.cross_entropy(model(inputs), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
