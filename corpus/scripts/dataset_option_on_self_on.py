"""Training a detector on a list of images: the dataset's constructor stores its
`augment` and `multiscale` options on `self`, and the only dataset the program builds
passes both on for training (their defaults), so the draws behind them run unseeded
(look-alike: dataset_option_on_self_off.py)."""
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
        if self.augment and np.random.random() < 0.5:  # expect: RPL101
            image = image.flip(-1)
        return image

    def collate_fn(self, batch):
        if self.multiscale:
            self.img_size = random.choice(range(320, 608 + 1, 32))  # expect: RPL101
        return torch.stack([torch.nn.functional.interpolate(b[None], size=self.img_size)[0] for b in batch])

    def __len__(self):
        return len(self.files)


def train(model, list_path, epochs=10):
    dataset = ListDataset(list_path, img_size=416)
    loader = DataLoader(dataset, batch_size=8, shuffle=False, collate_fn=dataset.collate_fn)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(epochs):
        for images in loader:
            loss = model(images).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    train(torch.nn.Conv2d(3, 8, 3), "data/train.txt")
