import torch


class FeatureBank:
    """A table of the latest feature of every sample: `update` writes the features the
    encoder just computed, with their gradient, so reading it back trains through it."""

    def __init__(self, size, dim):
        self.table = torch.zeros(size, dim)

    def cuda(self):
        self.table = self.table.cuda()
        return self

    def update(self, idx, feats):
        self.table[idx] = feats

    def read(self, idx):
        return self.table.index_select(0, idx)
