"""A CIFAR trainer in the style of older Wide-ResNet code: the training transform pads
each image by reflection inside `transforms.Lambda`. The pad runs on each CPU sample
where the dataset makes it, with no autograd graph, so the reflection pad's
nondeterministic CUDA backward never runs (no RPL202). Everything else is seeded and
deterministic."""
import os
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision.transforms as transforms
from torchvision import datasets

os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
torch.use_deterministic_algorithms(True)

train_transform = transforms.Compose([
    transforms.ToTensor(),
    transforms.Lambda(lambda x: F.pad(x.unsqueeze(0), (4, 4, 4, 4), mode="reflect").squeeze()),
    transforms.ToPILImage(),
    transforms.RandomCrop(32),
    transforms.ToTensor(),
])
data = datasets.CIFAR10("data", train=True, download=True, transform=train_transform)
loader = torch.utils.data.DataLoader(data, batch_size=128, shuffle=True, num_workers=0)
model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 10)).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for images, labels in loader:
    loss = F.cross_entropy(model(images.cuda()), labels.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
