import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, nz=64, hidden=256, out_dim=2):
        super().__init__()
        self.nz = nz
        self.net = nn.Sequential(
            nn.Linear(nz, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, out_dim),
        )

    def forward(self, z):
        return self.net(z)

    def sample(self, n, generator=None):
        z = torch.randn(n, self.nz, generator=generator)
        return self.forward(z)


class Critic(nn.Module):
    def __init__(self, in_dim=2, hidden=256):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x)


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1)
    mixed = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    grads = torch.autograd.grad(critic(mixed).sum(), mixed, create_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()
