"""ResNet-ish CIFAR training with AMP and cuDNN autotuning turned on for speed."""
import torch
import torch.nn as nn
import torchvision
import torchvision.transforms as T
from torch.utils.data import DataLoader

torch.manual_seed(1)
torch.backends.cudnn.benchmark = True  # expect: RPL203

train = torchvision.datasets.CIFAR10("data", train=True, download=True, transform=T.ToTensor())
loader = DataLoader(train, batch_size=128, shuffle=True, num_workers=4, pin_memory=True)
net = nn.Sequential(  # expect: RPL302  (no RPL301: no kernel that deterministic mode replaces)
    nn.Conv2d(3, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
    nn.Conv2d(64, 128, 3, padding=1), nn.BatchNorm2d(128), nn.ReLU(),
    nn.Flatten(), nn.Linear(128 * 32 * 32, 10),
).cuda()
scaler = torch.cuda.amp.GradScaler()
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
for epoch in range(30):
    for images, targets in loader:
        images, targets = images.cuda(non_blocking=True), targets.cuda(non_blocking=True)
        with torch.autocast("cuda", dtype=torch.float16):
            loss = nn.functional.cross_entropy(net(images), targets)
        opt.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
