"""The scripts' own helpers (no setup file builds this package): `load_all` is left
over from an earlier experiment and nothing calls it."""
import os

import torch


def load_latest(folder):
    return torch.load(os.path.join(folder, "last.pt"))


def load_all(folder):
    models = []
    for root, _, names in os.walk(folder):
        for name in names:
            models.append(torch.load(os.path.join(root, name)))
    return models[0]
