"""An image folder dataset that keeps an unsorted listing: its order is the order of the
samples, which this project's loader reads as they come."""
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
