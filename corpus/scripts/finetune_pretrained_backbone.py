"""Fine-tunes an ImageNet ResNet on 10 classes without seeding torch: the backbone's
weights are loaded (`weights=`), the new head is drawn; a second, randomly initialised
ResNet (`weights=None`) is trained as a baseline and a VGG (`pretrained=True`, the old
spelling) only extracts features."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision import models

model = models.resnet50(weights=models.ResNet50_Weights.IMAGENET1K_V2)
model.fc = nn.Linear(2048, 10)  # expect: RPL101
baseline = models.resnet18(weights=None)  # expect: RPL101
features = models.vgg16(pretrained=True).features.eval()

params = [*model.fc.parameters(), *baseline.parameters()]
opt = torch.optim.SGD(params, lr=0.01)
images = torch.linspace(0, 1, 8 * 3 * 64 * 64).reshape(8, 3, 64, 64)
labels = torch.arange(8) % 10
for step in range(100):
    with torch.no_grad():
        style = features(images).mean()
    loss = F.cross_entropy(model(images), labels) + F.cross_entropy(baseline(images)[:, :10], labels)
    opt.zero_grad()
    (loss + 0 * style).backward()
    opt.step()
