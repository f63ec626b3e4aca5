"""LightningCLI: the Trainer comes from the command line and config with Lightning's
defaults (the CLI seeds, but `deterministic` stays off)."""
from lightning.pytorch.cli import LightningCLI
import lightning as L
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class LitClassifier(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, 8, 5), nn.ReLU(), nn.Flatten(), nn.LazyLinear(3))

    def training_step(self, batch, batch_idx):
        x, y = batch
        return nn.functional.cross_entropy(self.net(x), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)



def cli_main():
    LightningCLI(LitClassifier, seed_everything_default=1234)  # expect: RPL306


if __name__ == "__main__":
    cli_main()
