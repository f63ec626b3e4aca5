"""Synthetic point-cloud classification data, generated when the module is imported."""
import numpy as np
import torch
from torch.utils.data import Dataset

N_TRAIN, N_POINTS = 2000, 256

# Built at import time; `import dataset` sorts before `import seeding` in train.py.
CLASS_CENTERS = np.random.normal(0.0, 3.0, size=(8, 3))  # expect: RPL101
TRAIN_LABELS = np.random.randint(0, 8, size=N_TRAIN)  # expect: RPL101


class PointClouds(Dataset):
    def __init__(self, labels, n_points=N_POINTS):
        self.labels = labels
        self.n_points = n_points

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        center = CLASS_CENTERS[self.labels[i]]
        pts = center + np.random.standard_normal((self.n_points, 3))
        return torch.from_numpy(pts.astype(np.float32)), int(self.labels[i])
