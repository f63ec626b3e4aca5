import numpy as np
import torch.nn as nn


def init_weights(module):
    if isinstance(module, nn.Linear):
        nn.init.xavier_uniform_(module.weight)  # expect: RPL101


def random_crop_box(size, crop):
    """Nothing in the project names this helper: no program can call it."""
    top = np.random.randint(0, size - crop)
    left = np.random.randint(0, size - crop)
    return top, left
