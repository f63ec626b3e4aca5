"""A Lightning 0.7.5 project (declared in requirements.txt): its Trainer has no
`deterministic` argument yet (0.7.6 adds it), so the finding says so and offers no
`deterministic=True` fix, which would raise TypeError on this release; the program seeds
torch itself."""
import random

import numpy as np
import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F


class Regressor(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return {"loss": F.mse_loss(self(x), y)}

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)

    def train_dataloader(self):
        data = torch.utils.data.TensorDataset(torch.ones(256, 16), torch.zeros(256, 1))
        return torch.utils.data.DataLoader(data, batch_size=32)


if __name__ == "__main__":
    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)
    trainer = pl.Trainer(gpus=1, max_epochs=5)  # expect: RPL306
    trainer.fit(Regressor())
