"""A detection dataset that gathers image paths from several folders with `+=` and sorts
them, then derives its cache paths in a comprehension whose own variable is called `f`
like the gathered list: the comprehension's `f` is one sorted path, not the listing.

Positive: the label files, listed into `f` in another method and split by position
(the comprehension there reads the listing itself, in file-system order)."""
import glob
import os
from pathlib import Path

import torch
from torch import nn


class Detections(torch.utils.data.Dataset):
    def __init__(self, roots):
        f = []
        for root in roots:
            f += glob.glob(os.path.join(root, "**", "*.jpg"), recursive=True)
        self.images = sorted(f)
        self.caches = [Path(f).with_suffix(".npy") for f in self.images]
        self.stems = {f: Path(f).stem for f in self.images}

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return torch.rand(3, 32, 32), i % 2

    def labels(self, root):
        f = glob.glob(os.path.join(root, "*.txt"))  # expect: RPL402
        names = [Path(p).stem for p in f]
        return names[: len(names) // 2]


torch.manual_seed(0)
data = Detections(["data/a", "data/b"])
held_out = data.labels("data/labels")
model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
loader = torch.utils.data.DataLoader(data, batch_size=8, generator=torch.Generator().manual_seed(0))
for x, y in loader:
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
