"""Image regression with hand-written augmentation: only torch is seeded."""
import random

import numpy as np
import torch
import torch.nn as nn
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchvision.transforms import functional as TF


class PatchDataset(Dataset):
    def __init__(self, paths, targets, size=96):
        self.paths, self.targets, self.size = paths, targets, size

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        img = Image.open(self.paths[i]).convert("RGB")
        if random.random() < 0.5:  # expect: RPL101
            img = TF.hflip(img)
        angle = np.random.uniform(-15, 15)  # expect: RPL101
        img = TF.rotate(img, angle)
        x = TF.to_tensor(TF.resize(img, [self.size, self.size]))
        x = x + 0.01 * torch.randn_like(x)
        return x, torch.tensor(self.targets[i], dtype=torch.float32)


def make_model():
    return nn.Sequential(
        nn.Conv2d(3, 16, 5, stride=2), nn.ReLU(),
        nn.Conv2d(16, 32, 5, stride=2), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(32, 1),
    )


def main():
    torch.manual_seed(0)  # (RPL105 said by RPL101 at the unseeded draw, this call related)
    with open("data/index.tsv") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    ds = PatchDataset([r[0] for r in rows], [float(r[1]) for r in rows])
    loader = DataLoader(ds, batch_size=32, shuffle=True)
    model = make_model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(20):
        for x, y in loader:
            loss = nn.functional.smooth_l1_loss(model(x).squeeze(1), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
