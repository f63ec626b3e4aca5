"""File helpers of a training project. Thin wrappers return a folder listing as is and
leave the order to their callers (which sort it); a loader that reads every file into
a list in listing order, and a caller that trains on a wrapper's result unsorted, do
depend on the file-system order."""
import glob
import os

import numpy as np


def list_checkpoints(folder, backend="os"):
    if backend == "os":
        return os.listdir(folder)
    return [path.rstrip("/") for path in glob.glob(os.path.join(folder, "*"))]


def shard_files(folder):
    shards = glob.glob(os.path.join(folder, "*.npy"))
    return shards


def latest_checkpoint(folder):
    steps = [int(name.split("_")[-1]) for name in list_checkpoints(folder) if name.startswith("ckpt_")]
    return max(steps) if steps else None


def load_shards(folder):
    arrays = []
    for name in os.listdir(folder):  # expect: RPL402
        arrays.append(np.load(os.path.join(folder, name)))
    return np.concatenate(arrays)


def first_shards(folder, k):
    return glob.glob(os.path.join(folder, "*.npy"))[:k]  # expect: RPL402
