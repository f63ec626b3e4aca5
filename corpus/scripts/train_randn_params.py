"""Trains a small encoder whose embeddings are `nn.Parameter(torch.randn(...))`
(no seed, no checkpoint): that initialisation is the first unseeded torch draw."""
import torch
import torch.nn as nn


class TokenMixer(nn.Module):
    def __init__(self, tokens=16, width=64):
        super().__init__()
        self.pos = nn.Parameter(0.02 * torch.randn(tokens, width))  # expect: RPL101
        self.mix = nn.Linear(width, width)  # expect: RPL101

    def forward(self, x):
        return self.mix(x + self.pos).mean(dim=1)


def main():
    model = TokenMixer()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.linspace(-1, 1, 32 * 16 * 64).reshape(32, 16, 64)
    target = data.mean(dim=(1, 2)).unsqueeze(1).expand(32, 64)
    for _ in range(10):
        opt.zero_grad()
        loss = (model(data) - target).pow(2).mean()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
