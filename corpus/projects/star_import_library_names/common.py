"""Shared helpers of a character-level language model: data loading and batching. The
entry points take everything from here with `from common import *`, including the
`torch` and `random` modules this file imports."""
import os
import random

import torch


def load_corpus(path):
    with open(path) as f:
        text = f.read()
    chars = sorted(set(text))
    index = {c: i for i, c in enumerate(chars)}
    return torch.tensor([index[c] for c in text]), len(chars)


def batchify(data, batch_size):
    n = data.size(0) // batch_size
    return data[: n * batch_size].view(batch_size, -1)


def checkpoint_path(folder):
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, "model.pt")
