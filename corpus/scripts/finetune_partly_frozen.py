"""Fine-tuning with the first stage frozen: the optimizer gets every parameter that still
requires grad, which includes later convolutions, so cuDNN convolutions train."""
import torch
import torch.nn as nn
import torchvision.models as models

torch.manual_seed(0)
model = models.resnet18()
for param in model.layer1.parameters():
    param.requires_grad = False
model = model.cuda()  # expect: RPL302
optimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.01)
for step in range(100):
    loss = nn.functional.cross_entropy(model(torch.randn(8, 3, 224, 224).cuda()), torch.randint(0, 1000, (8,)).cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
