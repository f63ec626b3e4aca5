import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, width=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, width), nn.ReLU(), nn.Linear(width, 2))

    def forward(self, x):
        return self.body(x)
