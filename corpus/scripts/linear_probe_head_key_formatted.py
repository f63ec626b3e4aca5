"""Linear evaluation where the head's attribute depends on the architecture (`head` for
a ViT, `fc` for a ResNet): the kept parameter names are formatted from it
(`'%s.weight' % head_key`). Every other parameter is frozen and the optimizer gets only
what still requires grad: no convolution trains, no cuDNN backward runs (no RPL302)."""
import argparse
import random

import numpy as np
import torch
import torch.nn as nn
import torchvision.models as models

parser = argparse.ArgumentParser()
parser.add_argument("--arch", default="resnet50")
args = parser.parse_args()
random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
if args.arch.startswith("vit"):
    model = models.vit_b_16()
    head_key = "heads"
else:
    model = models.resnet50()
    head_key = "fc"
for name, param in model.named_parameters():
    if name not in ["{}.weight".format(head_key), f"{head_key}.bias"]:
        param.requires_grad = False
model = model.cuda()
parameters = list(filter(lambda p: p.requires_grad, model.parameters()))
optimizer = torch.optim.SGD(parameters, lr=0.1, momentum=0.9)
criterion = nn.CrossEntropyLoss().cuda()
for step in range(100):
    images = torch.randn(8, 3, 224, 224).cuda()
    target = torch.randint(0, 1000, (8,)).cuda()
    loss = criterion(model(images), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
