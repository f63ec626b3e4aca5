"""The registry the training script picks datasets from; the coarse variant is left out."""
from segkit.datasets.ade import ADE

DATASETS = {"ade": ADE}


def get_dataset(name, root):
    return DATASETS[name](root)
