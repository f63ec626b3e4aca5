"""The look-alike: training builds its dataset with `Augmenter()`. torch is seeded,
NumPy is not, and the loader runs no worker: the flip is reported."""
import sys

import numpy as np
import torch
from torch.utils.data import DataLoader
from torchvision import transforms

from retina.data import Augmenter, BoxDataset, Normalizer

torch.manual_seed(0)
dataset = BoxDataset(np.load(sys.argv[1]), transform=transforms.Compose([Normalizer(), Augmenter()]))
model = torch.nn.Conv2d(3, 8, 3)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for batch in DataLoader(dataset, batch_size=4, num_workers=0):
    loss = model(batch["img"]).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
