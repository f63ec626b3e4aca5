"""A character model (a plain class) and a VAE (an `nn.Module`) that a training script
and two sampling scripts build. Their sampling methods run only where code names them:
`pick` in sample.py (which seeds NumPy), `generate` in decode.py (which does not), neither
in train.py."""
import numpy as np
import torch
import torch.nn as nn


class CharModel:
    def __init__(self, vocab):
        self.vocab = vocab

    def pick(self, weights):
        total = float(sum(weights))
        return int(np.searchsorted(np.cumsum(weights), np.random.rand() * total))

    def keep(self, text):
        return text


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)

    def generate(self, n):
        return self.fc(torch.as_tensor(np.random.standard_normal((n, 4)), dtype=torch.float32))  # expect: RPL101
