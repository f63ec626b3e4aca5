"""Computes a feature statistic over a folder with the package's evaluation loader only:
the training loader, and the random crop it draws, never runs in this program (nothing
in it names `get_train_loader`; the package's empty `__init__.py` names nothing
either). Nothing to report."""
import sys

import torch
from torchvision import datasets

from gan.loaders import get_eval_loader

if __name__ == "__main__":
    loader = get_eval_loader(datasets.ImageFolder(sys.argv[1]))
    total, count = 0.0, 0
    with torch.no_grad():
        for images, _ in loader:
            total += images.mean(dim=(1, 2, 3)).sum().item()
            count += images.size(0)
    print(total / count)
