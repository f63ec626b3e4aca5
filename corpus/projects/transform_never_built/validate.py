"""Evaluates a trained detector. It imports `Augmenter` beside the transforms it uses,
but builds its dataset with `Normalizer()` and `Resizer()` only: the random flip never
runs, and nothing is drawn."""
import sys

import numpy as np
import torch
from torchvision import transforms

from retina.data import Augmenter, BoxDataset, Normalizer, Resizer

dataset = BoxDataset(np.load(sys.argv[1]), transform=transforms.Compose([Normalizer(), Resizer()]))
model = torch.load(sys.argv[2])
model.eval()
with torch.no_grad():
    scores = [model(torch.as_tensor(dataset[i]["img"])).max().item() for i in range(len(dataset))]
print(sum(scores) / len(scores))
