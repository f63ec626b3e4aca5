"""Look-alike of lightning_unseeded_old: from Lightning 2.2 on `seed_everything()` without
a seed uses seed 0 (a warning says so), so every run is seeded the same way."""
import lightning.pytorch as pl
import torch


class Regressor(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(8, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.mse_loss(self.layer(x), y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.01)


if __name__ == "__main__":
    pl.seed_everything()
    data = torch.utils.data.TensorDataset(torch.ones(32, 8), torch.zeros(32, 1))
    trainer = pl.Trainer(max_epochs=2, deterministic=True)
    trainer.fit(Regressor(), torch.utils.data.DataLoader(data, batch_size=4))
