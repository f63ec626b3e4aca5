"""Trains an encoder against a feature bank on the GPU. The bank's table is a plain
tensor attribute, but `update` writes the encoder's features into it without `.detach()`,
so the gradient flows back through `index_select` when the bank is read: its CUDA backward
accumulates with atomic adds, and deterministic mode is never turned on (RPL301)."""
import torch
import torch.nn as nn

from feature_bank import FeatureBank

torch.manual_seed(0)
encoder = nn.Linear(32, 16).cuda()  # expect: RPL301
bank = FeatureBank(1000, 16).cuda()
opt = torch.optim.SGD(encoder.parameters(), lr=0.1)
for step in range(100):
    idx = torch.randint(0, 1000, (64,), device="cuda")
    z = encoder(torch.randn(64, 32, device="cuda"))
    bank.update(idx, z)
    loss = (bank.read(idx) - z).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
