"""The look-alike: the same frozen ResNet with a new head, but the optimizer is given
every parameter. Read as a full fine-tune: the program is reported for cuDNN's
determinism."""
import torch
import torch.nn as nn
import torch.optim as optim
import torchvision
from torch.optim import lr_scheduler

torch.manual_seed(0)
model = torchvision.models.resnet18(pretrained=True)
for param in model.parameters():
    param.requires_grad = False
model.fc = nn.Linear(model.fc.in_features, 2)
model = model.cuda()  # expect: RPL302
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
scheduler = lr_scheduler.StepLR(optimizer, step_size=7, gamma=0.1)
for epoch in range(25):
    for images, labels in torch.load("batches.pt"):
        loss = nn.functional.cross_entropy(model(images.cuda()), labels.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    scheduler.step()
