"""`pl.seed_everything()` without a seed: Lightning 1.6 (declared) picks a random seed,
so every run gets another one."""
import pytorch_lightning as pl
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
    pl.seed_everything()  # expect: RPL103
    data = torch.utils.data.TensorDataset(torch.ones(32, 8), torch.zeros(32, 1))
    trainer = pl.Trainer(max_epochs=2, deterministic=True)
    trainer.fit(Regressor(), torch.utils.data.DataLoader(data, batch_size=4))
