"""The network the default configuration (configs/model/mlp.yaml) builds; its noise
table draws from NumPy, which the program never seeds. The configuration sets
`dropout: 0.0`, so the dropout branch does not run."""
import numpy as np
import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self, hidden=32, dropout=0.5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.noise = np.random.rand(hidden)  # expect: RPL101
        if dropout > 0:
            self.drop = nn.Dropout(dropout)

    def forward(self, x):
        return self.net(x)
