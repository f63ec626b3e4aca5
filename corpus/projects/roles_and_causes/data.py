import random

import numpy as np
from torch.utils.data import Dataset


class Jitter(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        # Runs in DataLoader workers when num_workers > 0: torch reseeds random and
        # NumPy there from its base seed.
        scale = random.uniform(0.9, 1.1)  # expect: RPL101
        noise = np.random.rand(3)  # expect: RPL101
        return np.full(3, i * scale) + noise

