"""A Hydra + Lightning template: the composed configuration's `seed` is null, so the
guarded `seed_everything` is skipped on a default run and the model is built unseeded."""
import hydra
import lightning as L
import torch
from omegaconf import DictConfig


class LitRegressor(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.mse_loss(self.net(x), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


def train(cfg: DictConfig) -> None:
    if cfg.get("seed"):
        L.seed_everything(cfg.seed, workers=True)  # expect: RPL104
    model = LitRegressor()
    data = torch.utils.data.TensorDataset(torch.ones(64, 8), torch.zeros(64, 1))
    loader = torch.utils.data.DataLoader(data, batch_size=8)
    trainer = L.Trainer(max_epochs=cfg.trainer.max_epochs, accelerator="cpu", deterministic=True)
    trainer.fit(model, loader)


@hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
def main(cfg: DictConfig) -> None:
    train(cfg)


if __name__ == "__main__":
    main()
