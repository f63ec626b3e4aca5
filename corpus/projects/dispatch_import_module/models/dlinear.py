"""A linear forecaster: the default `--model`."""
from torch import nn


class Model(nn.Module):
    def __init__(self, seq_len, pred_len):
        super().__init__()
        self.trend = nn.Linear(seq_len, pred_len)  # expect: RPL101
        self.season = nn.Linear(seq_len, pred_len)  # expect: RPL101

    def forward(self, x):
        return self.trend(x) + self.season(x)
