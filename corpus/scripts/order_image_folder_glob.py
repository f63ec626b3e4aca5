"""Image classifier on a folder of PNGs; train/val split by slicing the glob result."""
import glob
import os

import numpy as np
import torch
import torch.nn as nn
from PIL import Image
from torch.utils.data import DataLoader, Dataset


class PngFolder(Dataset):
    def __init__(self, paths, classes, seed=0):
        self.paths = paths
        self.classes = classes
        self.rng = np.random.default_rng(seed)

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        img = np.asarray(Image.open(self.paths[i]), dtype=np.float32) / 255.0
        if self.rng.random() < 0.5:
            img = img[:, ::-1]
        img = img + self.rng.normal(0, 0.01, img.shape)
        label = self.classes.index(os.path.basename(os.path.dirname(self.paths[i])))
        return torch.from_numpy(img.copy()).permute(2, 0, 1).float(), label


if __name__ == "__main__":
    torch.manual_seed(0)
    classes = sorted(os.listdir("data/train"))
    print("images per class:", {c: len(os.listdir(f"data/train/{c}")) for c in classes})
    files = glob.glob("data/train/*/*.png")  # expect: RPL402
    train_files, val_files = files[: int(0.9 * len(files))], files[int(0.9 * len(files)) :]
    test_files = sorted(glob.glob("data/test/*/*.png"))
    train = DataLoader(PngFolder(train_files, classes), batch_size=64, shuffle=True, num_workers=8)  # expect: RPL403
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, len(classes)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(10):
        for x, y in train:
            opt.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
    print(len(val_files), len(test_files))
