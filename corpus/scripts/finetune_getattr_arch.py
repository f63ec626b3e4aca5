"""Fine-tuning script that builds its backbone with `getattr(torchvision.models, name)`:
the backbone's weights and the new head are drawn from torch's global RNG, unseeded."""
import sys

import torch
import torchvision

ARCH = sys.argv[1] if len(sys.argv) > 1 else "resnet50"

backbone = getattr(torchvision.models, ARCH)(num_classes=100)  # expect: RPL101
optimizer = torch.optim.AdamW(backbone.parameters(), lr=3e-4)
for step in range(100):
    loss = backbone(torch.zeros(4, 3, 224, 224)).logsumexp(1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
