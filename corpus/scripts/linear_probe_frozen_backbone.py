"""Linear evaluation of a pretrained ResNet: every parameter but the `fc` head is frozen
and the optimizer gets only what still requires grad, so no convolution trains and no
cuDNN backward runs (no RPL302); the seeds are set."""
import random

import numpy as np
import torch
import torch.nn as nn
import torchvision.models as models

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
model = models.resnet50()
for name, param in model.named_parameters():
    if name not in ["fc.weight", "fc.bias"]:
        param.requires_grad = False
model.fc.weight.data.normal_(mean=0.0, std=0.01)
model.fc.bias.data.zero_()
model = model.cuda()
parameters = list(filter(lambda p: p.requires_grad, model.parameters()))
optimizer = torch.optim.SGD(parameters, lr=30.0, momentum=0.9)
criterion = nn.CrossEntropyLoss().cuda()
for step in range(100):
    images = torch.randn(8, 3, 224, 224).cuda()
    target = torch.randint(0, 1000, (8,)).cuda()
    loss = criterion(model(images), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
