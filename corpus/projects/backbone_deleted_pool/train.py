import torch
from torch import nn

from nets.vgg import Trunk, vgg16


class Segmenter(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = vgg16()
        self.trunk = Trunk()
        self.head = nn.Conv2d(64, 2, 1)

    def forward(self, x):
        _, deep = self.encoder(x)
        return self.head(self.trunk(deep))


torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
device = torch.device("cuda")
net = Segmenter().to(device)
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for step in range(100):
    image = torch.rand(4, 3, 64, 64, device=device)
    loss = net(image).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
