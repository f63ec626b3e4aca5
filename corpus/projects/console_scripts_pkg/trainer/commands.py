"""`trainer-pretrain` runs `pretrain()` (pyproject.toml `[project.scripts]`): a training
program although the module has no `__main__` block and nothing calls the function."""
import torch
from torch import nn

from trainer.blocks import make_model


def pretrain():
    model = make_model().cuda()  # expect: RPL302  (no RPL301: no kernel that deterministic mode replaces)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for _ in range(10):
        x = torch.randn(16, 3, 32, 32).cuda()  # expect: RPL101
        loss = nn.functional.mse_loss(model(x), x)
        opt.zero_grad()
        loss.backward()
        opt.step()
