"""DCGAN generator/discriminator training, seeded the way the classic example does it."""
import argparse
import random

import torch
import torch.nn as nn
import torch.optim as optim
import torchvision.datasets as dset
import torchvision.transforms as transforms
from torch.utils.data import DataLoader

parser = argparse.ArgumentParser()
parser.add_argument("--dataroot", default="data/celeba")
parser.add_argument("--nz", type=int, default=100)
parser.add_argument("--niter", type=int, default=25)
parser.add_argument("--manualSeed", type=int, help="manual seed")
opt = parser.parse_args()

if opt.manualSeed is None:
    opt.manualSeed = random.randint(1, 10000)  # expect: RPL103
print("Random Seed: ", opt.manualSeed)
random.seed(opt.manualSeed)
torch.manual_seed(opt.manualSeed)


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif classname.find("BatchNorm") != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)


netG = nn.Sequential(
    nn.ConvTranspose2d(opt.nz, 256, 4, 1, 0, bias=False), nn.BatchNorm2d(256), nn.ReLU(True),
    nn.ConvTranspose2d(256, 128, 4, 2, 1, bias=False), nn.BatchNorm2d(128), nn.ReLU(True),
    nn.ConvTranspose2d(128, 3, 4, 2, 1, bias=False), nn.Tanh(),
)
netD = nn.Sequential(
    nn.Conv2d(3, 128, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
    nn.Conv2d(128, 256, 4, 2, 1, bias=False), nn.BatchNorm2d(256), nn.LeakyReLU(0.2, inplace=True),
    nn.Conv2d(256, 1, 4, 1, 0, bias=False), nn.Sigmoid(),
)
netG.apply(weights_init)
netD.apply(weights_init)

dataset = dset.ImageFolder(
    root=opt.dataroot,
    transform=transforms.Compose([transforms.Resize(16), transforms.CenterCrop(16), transforms.ToTensor()]),
)
dataloader = DataLoader(dataset, batch_size=64, shuffle=True)
criterion = nn.BCELoss()
fixed_noise = torch.randn(64, opt.nz, 1, 1)
optD = optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optG = optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))

for epoch in range(opt.niter):
    for real, _ in dataloader:
        b = real.size(0)
        netD.zero_grad()
        errD_real = criterion(netD(real).view(-1), torch.ones(b))
        fake = netG(torch.randn(b, opt.nz, 1, 1))
        errD_fake = criterion(netD(fake.detach()).view(-1), torch.zeros(b))
        (errD_real + errD_fake).backward()
        optD.step()
        netG.zero_grad()
        errG = criterion(netD(fake).view(-1), torch.ones(b))
        errG.backward()
        optG.step()
    print(f"[{epoch}/{opt.niter}] D {(errD_real + errD_fake).item():.3f} G {errG.item():.3f}")
