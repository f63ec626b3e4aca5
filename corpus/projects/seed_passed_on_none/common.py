import random

import numpy as np


def set_global_seeds(seed=None):
    if seed is not None:
        np.random.seed(seed)  # expect: RPL104
        random.seed(seed)  # expect: RPL104
