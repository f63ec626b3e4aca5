"""A GAN trainer on CUDA that also scores samples with an Inception network. The scoring
resizes with a bicubic `nn.Upsample` called only under `torch.no_grad()`: no backward
runs, nothing to report. The generator's own bicubic upsampling trains: reported."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.models import inception_v3


def inception_score(images, device="cuda", batch_size=32):
    net = inception_v3(pretrained=True, transform_input=False).to(device)
    net.eval()
    up = nn.Upsample(size=(299, 299), mode="bicubic").to(device)

    def predict(x):
        with torch.no_grad():
            x = up(x)
            return F.softmax(net(x), dim=-1).cpu()

    preds = torch.cat([predict(images[i:i + batch_size].to(device)) for i in range(0, len(images), batch_size)])
    marginal = preds.mean(0, keepdim=True)
    return (preds * (preds.log() - marginal.log())).sum(1).mean().exp().item()


class Generator(nn.Module):
    def __init__(self, z_dim=128):
        super().__init__()
        self.fc = nn.Linear(z_dim, 64 * 8 * 8)
        self.up = nn.Upsample(scale_factor=2, mode="bicubic")  # expect: RPL202
        self.conv = nn.Conv2d(64, 3, 3, padding=1)

    def forward(self, z):
        return torch.tanh(self.conv(self.up(self.fc(z).view(-1, 64, 8, 8))))


if __name__ == "__main__":
    torch.manual_seed(0)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    gen = Generator().cuda()
    optimizer = torch.optim.Adam(gen.parameters(), lr=2e-4)
    for step in range(100):
        fake = gen(torch.randn(64, 128, device="cuda"))
        loss = fake.pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("IS", inception_score(gen(torch.randn(256, 128, device="cuda")).detach()))
