"""A model library module with a smoke demo under __main__ (issue 13: demos)."""
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc(self.conv(x).mean((2, 3)))


if __name__ == "__main__":
    # Smoke demo: random input through the model, shape check. Not a training program.
    net = Net()
    out = net(torch.randn(2, 3, 16, 16))
    assert out.shape == (2, 2)
