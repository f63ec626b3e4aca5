"""Two Lightning trainers in one program, but only the second leaves `deterministic`
at its default: the first is deterministic, so only the second is reported."""
import lightning as L
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Regressor(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(8, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return nn.functional.mse_loss(self.net(x), y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


if __name__ == "__main__":
    L.seed_everything(3, workers=True)
    model = Regressor()
    loader = DataLoader(TensorDataset(torch.randn(256, 8), torch.randn(256, 1)), batch_size=32, shuffle=True)
    L.Trainer(max_epochs=5, deterministic=True).fit(model, loader)
    L.Trainer(max_epochs=1).fit(model, loader)  # expect: RPL306
