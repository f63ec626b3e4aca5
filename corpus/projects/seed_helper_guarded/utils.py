"""A seeding helper that does nothing without a seed."""
import random

import numpy as np
import torch


def set_seed(seed=None):
    if seed is not None:
        random.seed(seed)  # expect: RPL104
        np.random.seed(seed)  # expect: RPL104
        torch.manual_seed(seed)  # expect: RPL104
