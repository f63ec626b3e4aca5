"""Trains on the images of a folder; a study mode and a cleanup mode, both off by default,
list other folders.

Only what the default run executes counts: the `--task study` branch and the cleanup
branch (an option and a module constant that default to the other value), and the
helper only the study branch calls, are not this program's run, so their unsorted
listings are not reported (look-alikes). The training file list, which the
default run splits by position, is (positive).
"""
import argparse
import glob
import os

import torch
from torch import nn

CLEAN_CACHE = False

parser = argparse.ArgumentParser()
parser.add_argument("--task", default="train", choices=["train", "study"])
parser.add_argument("--data", default="data")
args = parser.parse_args()


def latest_study():
    runs = glob.glob("study_*.txt")
    return runs[-1]


if args.task == "study":
    print(latest_study())
    os.system("zip study.zip " + " ".join(glob.glob("study_*.txt")))

if CLEAN_CACHE:
    stale = os.listdir("cache")
    os.remove(os.path.join("cache", stale[0]))

files = glob.glob(os.path.join(args.data, "*.pt"))  # expect: RPL402
train_files, val_files = files[:800], files[800:]

torch.manual_seed(0)
model = nn.Linear(16, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for path in train_files:
    x, y = torch.load(path)
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
