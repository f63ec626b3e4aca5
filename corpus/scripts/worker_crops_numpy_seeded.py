"""A dataset drawing its crop positions from `random` in DataLoader workers, in a
program that seeds NumPy only: torch reseeds each worker's `random` from its own
generator, which nothing seeds, so the crops differ from run to run."""
import random

import numpy as np
import torch


class Crops(torch.utils.data.Dataset):
    def __init__(self, images):
        self.images = images

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        x = random.randint(0, 32)  # expect: RPL101
        return self.images[i][:, x:x + 224]


np.random.seed(0)
loader = torch.utils.data.DataLoader(Crops(torch.load("images.pt")), batch_size=8, num_workers=4)
for batch in loader:
    torch.save(batch.mean(0), "mean.pt")
