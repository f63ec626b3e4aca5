import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, random_split
from torchvision import transforms
from torchvision.datasets import MNIST


class MNISTDataModule(pl.LightningDataModule):
    def __init__(self, data_dir: str, batch_size: int, val_size: int = 5000):
        super().__init__()
        self.data_dir, self.batch_size, self.val_size = data_dir, batch_size, val_size
        self.transform = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])

    def prepare_data(self):
        MNIST(self.data_dir, train=True, download=True)
        MNIST(self.data_dir, train=False, download=True)

    def setup(self, stage=None):
        full = MNIST(self.data_dir, train=True, transform=self.transform)
        split_gen = torch.Generator().manual_seed(42)
        self.train_set, self.val_set = random_split(full, [len(full) - self.val_size, self.val_size], generator=split_gen)
        self.test_set = MNIST(self.data_dir, train=False, transform=self.transform)

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=self.batch_size)

    def test_dataloader(self):
        return DataLoader(self.test_set, batch_size=self.batch_size)
