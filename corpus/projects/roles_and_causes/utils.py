import random

import numpy as np
import torch


def set_seed(seed):
    # Never called by any program of this project.
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
