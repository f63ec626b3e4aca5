"""An image classifier trained from a folder, with the helpers around it: a search that
gathers matches with `.extend` and asserts there is exactly one, an exported model
folder opened at its first `*.onnx` match, and a plot of every results file on one
figure (the order only decides the legend's order).

Positives: the training images, read with `plt.imread` (matplotlib's image reader loads
data, it draws nothing) into a list that is split by position, and the gathered label
files sliced."""
import glob
import os
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import torch
from torch import nn


def find_config(name):
    found = []
    for folder in ("configs", "experiments"):
        found.extend(glob.glob(os.path.join(folder, "**", name), recursive=True))
    assert len(found), f"{name} not found"
    assert len(found) == 1, f"several files match {name}: {found}"
    return found[0]


def exported_model(folder):
    folder = Path(folder)
    if folder.is_dir():
        return next(folder.glob("*.onnx"), None)
    return folder


def plot_results(save_dir):
    fig, ax = plt.subplots(2, 2, figsize=(8, 6))
    ax = ax.ravel()
    for f in Path(save_dir).glob("results*.csv"):
        data = np.loadtxt(f, delimiter=",", skiprows=1)
        for i in range(4):
            ax[i].plot(data[:, 0], data[:, i + 1], label=f.stem)
            ax[i].set_title(f"column {i + 1}")
    ax[0].legend()
    fig.savefig(os.path.join(save_dir, "results.png"))
    plt.close(fig)


def load_images(folder):
    images = []
    for path in glob.glob(os.path.join(folder, "*.png")):  # expect: RPL402
        images.append(plt.imread(path))
    return np.stack(images)


def label_files(folders):
    labels = []
    for folder in folders:
        labels.extend(glob.glob(os.path.join(folder, "*.txt")))  # expect: RPL402
    return labels[:100]


config = find_config("classifier.yaml")
onnx = exported_model("exported")
images = torch.from_numpy(load_images("data/train")).permute(0, 3, 1, 2)
labels = label_files(["data/a", "data/b"])
train, held_out = images[:800], images[800:]

torch.manual_seed(0)
model = nn.Sequential(nn.Flatten(), nn.LazyLinear(10))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for x in train.split(32):
    loss = model(x).logsumexp(1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
plot_results("runs/exp")
