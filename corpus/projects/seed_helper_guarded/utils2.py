"""The same helper written with an early return."""
import random

import numpy as np
import torch


def seed_everything(seed=None):
    if seed is None:
        return
    random.seed(seed)  # expect: RPL104
    np.random.seed(seed)  # expect: RPL104
    torch.manual_seed(seed)  # expect: RPL104
