"""The registry the training script picks datasets from."""
from segkit.datasets.ade import ADE
from segkit.datasets.coarse import Coarse

DATASETS = {"ade": ADE, "coarse": Coarse}


def get_dataset(name, root):
    return DATASETS[name](root)
