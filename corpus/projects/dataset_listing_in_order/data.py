"""The image folder dataset of dataset_listings_kept, used here by a program whose
loader reads it in order (the other classes are not used)."""
import os
from pathlib import Path

import torch
from torch.utils.data import Dataset


class Folder(Dataset):
    def __init__(self, root):
        self.paths = [p for p in Path(root).glob("**/*.pt")]  # expect: RPL402

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        return torch.load(self.paths[index])


class Labelled(Dataset):
    def __init__(self, root):
        self.classes = os.listdir(root)
        self.items = [(os.path.join(root, c, f), i) for i, c in enumerate(self.classes) for f in sorted(os.listdir(os.path.join(root, c)))]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, index):
        path, label = self.items[index]
        return torch.load(path), label


class Split(Dataset):
    def __init__(self, root, train):
        files = os.listdir(root)
        self.files = files[:800] if train else files[800:]

    def __len__(self):
        return len(self.files)

    def __getitem__(self, index):
        return torch.load(self.files[index])


class Unread(Dataset):
    """Keeps its listing only to count it."""

    def __init__(self, root):
        self.files = os.listdir(root)
        self.size = len(self.files)

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        return torch.zeros(4)
