"""A GAN that scores its samples with an Inception-style network, called only under
`torch.no_grad()`: the network's resize and grid sampling never run a backward (look-alike:
the generator's own bicubic upsampling, trained with grad)."""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
torch.use_deterministic_algorithms(True)


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3)

    def forward(self, images):
        images = F.interpolate(images, size=(299, 299), mode="bicubic")
        grid = torch.zeros(images.shape[0], 32, 32, 2, device=images.device)
        return self.conv(F.grid_sample(images, grid, align_corners=False)).mean((1, 2, 3))


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(64, 3 * 8 * 8)

    def forward(self, z):
        x = self.fc(z).view(-1, 3, 8, 8)
        return F.interpolate(x, scale_factor=4, mode="bicubic")  # expect: RPL202


generator = Generator().cuda()
scorer = Scorer().cuda()
opt = torch.optim.Adam(generator.parameters(), lr=2e-4)
for step in range(100):
    fake = generator(torch.randn(16, 64, device="cuda"))
    loss = fake.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        with torch.no_grad():
            print(step, scorer(fake).mean().item())
