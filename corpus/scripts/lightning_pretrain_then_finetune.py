"""Pretraining, then fine-tuning: two Lightning trainers built the same way, neither
deterministic. One cause (the program never asks Lightning for deterministic kernels),
so one finding, at the first trainer; the second is a related location and the fix
turns `deterministic` on in both."""
import lightning as L
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Encoder(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 16))

    def training_step(self, batch, batch_idx):
        (x,) = batch
        return nn.functional.mse_loss(self.net(x), x)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-3)


def pretrain(model, loader):
    trainer = L.Trainer(max_epochs=10, accelerator="gpu", devices=1)  # expect: RPL306
    trainer.fit(model, loader)


def finetune(model, loader):
    trainer = L.Trainer(max_epochs=2, accelerator="gpu", devices=1, precision="16-mixed")
    trainer.fit(model, loader)


if __name__ == "__main__":
    L.seed_everything(7, workers=True)
    model = Encoder()
    unlabelled = DataLoader(TensorDataset(torch.randn(512, 16)), batch_size=64, shuffle=True)
    labelled = DataLoader(TensorDataset(torch.randn(64, 16)), batch_size=16, shuffle=True)
    pretrain(model, unlabelled)
    finetune(model, labelled)
