"""A detector's training script whose helpers look at listings without using their order.

Look-alikes: a listing tested only for truth (`if glob.glob(...)`, `not os.listdir(...)`,
inside `and`/`or`), element 0 of a search after `assert len(files) == 1` (the assert's
message may show the list), and two listings an assertion compares (it only stops the
run or not). Positive: the image list split by position.
"""
import glob
import os
from pathlib import Path

import torch
from torch import nn


def find_config(name):
    files = glob.glob(os.path.join("configs", "**", name), recursive=True)
    assert len(files), f"{name} not found"
    assert len(files) == 1, f"several files match {name}: {files}"
    return files[0]


source = "data/images"
if not (Path(source).exists() or glob.glob(source + "*")):
    raise SystemExit(f"no images under {source}")
resume = bool(os.listdir("checkpoints")) if os.path.isdir("checkpoints") else False
fresh_cache = not glob.glob("cache/*.npy")
config = find_config("detector.yaml")
assert os.listdir("data/masks") == os.listdir("data/images"), "every image needs its mask"

images = glob.glob(os.path.join(source, "*.jpg"))  # expect: RPL402
train_images, val_images = images[:900], images[900:]

torch.manual_seed(0)
model = nn.Conv2d(3, 8, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for path in train_images:
    x = torch.rand(1, 3, 32, 32)
    loss = model(x).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
