"""Look-alike of scripts_package_unused_helper: setup.py builds this package for others,
so `load_all` is its API, called or not."""
import os

import torch


def load_latest(folder):
    return torch.load(os.path.join(folder, "last.pt"))


def load_all(folder):
    models = []
    for root, _, names in os.walk(folder):  # expect: RPL402
        for name in names:
            models.append(torch.load(os.path.join(root, name)))
    return models[0]
