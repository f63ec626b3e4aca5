"""A captioning dataset: `__getitem__` picks one of an image's captions at random
through a helper method. The loader runs 4 workers, where torch reseeds Python's
`random` from its own seed."""
import random

import torch
import torch.utils.data as data


class CaptionDataset(data.Dataset):
    def __init__(self, captions):
        self.captions = captions

    def pick_caption(self, ix):
        options = self.captions[ix]
        return options[random.randint(0, len(options) - 1)]

    def __getitem__(self, index):
        return torch.tensor(self.pick_caption(index))

    def __len__(self):
        return len(self.captions)


def make_loader(captions, workers=4):
    return data.DataLoader(CaptionDataset(captions), batch_size=8, shuffle=True, num_workers=workers)
