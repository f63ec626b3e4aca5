"""The same fine-tuning with transforms v2, every generator seeded first: clean."""
import random

import numpy as np
import torch
import torch.nn as nn
import torchvision
from torchvision import models
from torchvision.transforms import v2

SEED = 0
random.seed(SEED)
np.random.seed(SEED)
torch.manual_seed(SEED)
torch.use_deterministic_algorithms(True)

train_tf = v2.Compose([
    v2.RandomResizedCrop(224, antialias=True),
    v2.RandomHorizontalFlip(),
    v2.RandomChoice([v2.Grayscale(3), v2.GaussianBlur(3)]),
    v2.TrivialAugmentWide(),
    v2.ToDtype(torch.float32, scale=True),
    v2.Normalize((0.5, 0.5, 0.5), (0.25, 0.25, 0.25)),
])
cutmix = v2.CutMix(num_classes=10)
train_set = torchvision.datasets.CIFAR10("data", train=True, download=True, transform=train_tf)
loader = torch.utils.data.DataLoader(train_set, batch_size=64)

model = models.resnet18(weights=None, num_classes=10)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for images, labels in loader:
    images, labels = cutmix(images, labels)
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(images), labels)
    loss.backward()
    optimizer.step()
torch.save(model.state_dict(), "resnet18_v2.pt")
