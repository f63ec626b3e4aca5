"""Detection data: a dataset that applies whatever transform it is given, and three
transforms without a constructor of their own. `Augmenter` flips at random with NumPy."""
import numpy as np
from torch.utils.data import Dataset


class BoxDataset(Dataset):
    def __init__(self, images, transform=None):
        self.images = images
        self.transform = transform

    def __getitem__(self, idx):
        sample = {"img": self.images[idx]}
        if self.transform:
            sample = self.transform(sample)
        return sample

    def __len__(self):
        return len(self.images)


class Augmenter(object):
    def __call__(self, sample, flip_x=0.5):
        if np.random.rand() < flip_x:  # expect: RPL101
            sample["img"] = sample["img"][:, ::-1]
        return sample


class Normalizer(object):
    def __call__(self, sample):
        sample["img"] = (sample["img"] - 0.5) / 0.25
        return sample


class Resizer(object):
    def __call__(self, sample):
        return sample
