"""Lightning with the recommended setup: seed_everything(workers=True) and deterministic=True."""
import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class AutoEncoder(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 8, 3, stride=2, padding=1), nn.ReLU())
        self.dec = nn.ConvTranspose2d(8, 1, 4, stride=2, padding=1)

    def training_step(self, batch, batch_idx):
        (x,) = batch
        return F.mse_loss(self.dec(self.enc(x)), x)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters())


if __name__ == "__main__":
    pl.seed_everything(2024, workers=True)
    loader = DataLoader(TensorDataset(torch.rand(256, 1, 28, 28)), batch_size=32, shuffle=True)
    trainer = pl.Trainer(max_epochs=3, accelerator="gpu", deterministic=True)
    trainer.fit(AutoEncoder(), loader)
