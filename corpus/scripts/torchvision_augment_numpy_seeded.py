"""CIFAR-10 fine-tuning with torchvision augmentation: seeds NumPy and random, never torch."""
import random

import numpy as np
import torch
import torch.nn as nn
import torchvision
import torchvision.transforms as T
from torchvision import models

random.seed(0)  # (RPL105 said by RPL101 at the unseeded draw, this call related)
np.random.seed(0)

train_tf = T.Compose([
    T.RandomResizedCrop(224),  # expect: RPL101
    T.RandomHorizontalFlip(),  # expect: RPL101
    T.ColorJitter(0.4, 0.4, 0.4),  # expect: RPL101
    T.RandomChoice([T.Grayscale(3), T.GaussianBlur(3)]),  # expect: RPL101
    T.ToTensor(),
    T.Normalize((0.5, 0.5, 0.5), (0.25, 0.25, 0.25)),
])
test_tf = T.Compose([T.Resize(256), T.CenterCrop(224), T.ToTensor()])
train_set = torchvision.datasets.CIFAR10("data", train=True, download=True, transform=train_tf)
test_set = torchvision.datasets.CIFAR10("data", train=False, download=True, transform=test_tf)
loader = torch.utils.data.DataLoader(train_set, batch_size=64, num_workers=2)

model = models.resnet18(weights=models.ResNet18_Weights.DEFAULT)  # weights= loads over the drawn init: the head is the first draw
model.fc = nn.Linear(model.fc.in_features, 10)  # expect: RPL101
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for epoch in range(5):
    for images, labels in loader:
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(images), labels)
        loss.backward()
        optimizer.step()
torch.save(model.state_dict(), "resnet18_cifar.pt")
