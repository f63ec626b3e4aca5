"""Evaluation of a detector on a list of images: the dataset's constructor stores its
`augment` and `multiscale` options on `self`, and the only dataset the program builds
passes both off, so the draws behind `if self.augment:` and `if self.multiscale:` never
run (look-alike: dataset_option_on_self_on.py)."""
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class ListDataset(Dataset):
    def __init__(self, list_path, img_size=416, augment=True, multiscale=True):
        with open(list_path) as f:
            self.files = f.read().splitlines()
        self.img_size = img_size
        self.augment = augment
        self.multiscale = multiscale

    def __getitem__(self, index):
        image = torch.from_numpy(np.load(self.files[index]))
        if self.augment and np.random.random() < 0.5:
            image = image.flip(-1)
        return image

    def collate_fn(self, batch):
        if self.multiscale:
            self.img_size = random.choice(range(320, 608 + 1, 32))
        return torch.stack([torch.nn.functional.interpolate(b[None], size=self.img_size)[0] for b in batch])

    def __len__(self):
        return len(self.files)


def evaluate(model, list_path):
    dataset = ListDataset(list_path, img_size=416, augment=False, multiscale=False)
    loader = DataLoader(dataset, batch_size=8, shuffle=False, collate_fn=dataset.collate_fn)
    with torch.no_grad():
        return [model(images) for images in loader]


if __name__ == "__main__":
    model = torch.load("yolo.pt")
    model.eval()
    print(evaluate(model, "data/valid.txt"))
