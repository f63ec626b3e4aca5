"""Lightning autoencoder launched through click; `--seed` is optional."""
import click
import lightning as L
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader
from torchvision.datasets import MNIST
from torchvision.transforms import ToTensor


class LitAutoEncoder(L.LightningModule):
    def __init__(self, latent_dim: int = 16, lr: float = 1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = nn.Sequential(nn.Flatten(), nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, latent_dim))
        self.decoder = nn.Sequential(nn.Linear(latent_dim, 128), nn.ReLU(), nn.Linear(128, 784))

    def training_step(self, batch, batch_idx):
        x, _ = batch
        x = x.view(x.size(0), -1)
        noisy = x + 0.1 * torch.randn_like(x)
        loss = F.mse_loss(self.decoder(self.encoder(noisy)), x)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


@click.command()
@click.option("--epochs", default=5, type=int)
@click.option("--latent-dim", default=16, type=int)
@click.option("--seed", default=None, type=int, help="Global seed; omit for a random run.")
def main(epochs, latent_dim, seed):
    if seed is not None:
        L.seed_everything(seed, workers=True)  # expect: RPL104

    model = LitAutoEncoder(latent_dim=latent_dim)
    train = MNIST("data", download=True, transform=ToTensor())
    loader = DataLoader(train, batch_size=256, shuffle=True)
    trainer = L.Trainer(max_epochs=epochs, deterministic=True, accelerator="auto")
    trainer.fit(model, loader)


if __name__ == "__main__":
    main()
