"""ImageNet-style training: the architecture comes from timm's registry by name
(`create_model(args.model)`); the default is convnext_tiny."""
import argparse

import torch
import torch.nn.functional as F
from timm.models import create_model

import models  # noqa: F401  (registers the architectures)

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="convnext_tiny", type=str)
parser.add_argument("--epochs", default=2, type=int)
args = parser.parse_args()

model = create_model(args.model, pretrained=False, num_classes=100).cuda()  # expect: RPL302
optimizer = torch.optim.AdamW(model.parameters(), lr=4e-3)
for epoch in range(args.epochs):
    images = torch.zeros(8, 3, 64, 64).cuda()
    targets = torch.zeros(8, dtype=torch.long).cuda()
    loss = F.cross_entropy(model(images), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
