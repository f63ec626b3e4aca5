"""Lightning classifier on tabular features. seed_everything runs after the model exists."""
from argparse import ArgumentParser

import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class TabularClassifier(pl.LightningModule):
    def __init__(self, n_features: int, n_classes: int, hidden: int = 256, p_drop: float = 0.3):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(
            nn.Linear(n_features, hidden),  # expect: RPL101
            nn.LayerNorm(hidden),
            nn.GELU(),
            nn.Dropout(p_drop),
            nn.Linear(hidden, n_classes),  # expect: RPL101
        )

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        x = F.dropout(x, p=0.05, training=True)
        loss = F.cross_entropy(self(x), y)
        self.log("train/loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val/acc", (self(x).argmax(-1) == y).float().mean(), prog_bar=True)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=3e-4, weight_decay=1e-2)


def load_split(path):
    blob = torch.load(path)
    return TensorDataset(blob["x"].float(), blob["y"].long())


if __name__ == "__main__":
    parser = ArgumentParser()
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--max_epochs", type=int, default=20)
    args = parser.parse_args()

    model = TabularClassifier(n_features=54, n_classes=7)
    pl.seed_everything(args.seed, workers=True)

    train_dl = DataLoader(load_split("data/train.pt"), batch_size=512, shuffle=True)
    val_dl = DataLoader(load_split("data/val.pt"), batch_size=2048)
    trainer = pl.Trainer(max_epochs=args.max_epochs, deterministic=True, log_every_n_steps=10)
    trainer.fit(model, train_dl, val_dl)
