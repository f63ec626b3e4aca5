import torch
import torch.nn as nn


class TinyPointNet(nn.Module):
    def __init__(self, num_classes=8):
        super().__init__()
        self.mlp1 = nn.Sequential(nn.Conv1d(3, 64, 1), nn.BatchNorm1d(64), nn.ReLU())
        self.mlp2 = nn.Sequential(nn.Conv1d(64, 256, 1), nn.BatchNorm1d(256), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(256, 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, num_classes))

    def forward(self, pts):
        x = self.mlp2(self.mlp1(pts.transpose(1, 2)))
        return self.head(torch.max(x, dim=2).values)
