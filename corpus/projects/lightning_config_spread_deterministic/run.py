# The look-alike: the same launcher, whose YAML file sets `deterministic: true` for the
# Trainer. No finding.
import argparse

import torch
import yaml
from pytorch_lightning import LightningModule, Trainer, seed_everything


class ConvVAE(LightningModule):
    def __init__(self, latent_dim):
        super().__init__()
        self.encoder = torch.nn.Sequential(torch.nn.Conv2d(3, 32, 3, stride=2), torch.nn.ReLU(), torch.nn.Flatten())
        self.decoder = torch.nn.LazyLinear(3 * 64 * 64)
        self.latent_dim = latent_dim

    def training_step(self, batch, batch_idx):
        images, _ = batch
        recon = self.decoder(self.encoder(images)).view_as(images)
        return torch.nn.functional.mse_loss(recon, images)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


parser = argparse.ArgumentParser(description="Generic runner for VAE models")
parser.add_argument("--config", "-c", dest="filename", default="configs/vae.yaml")
args = parser.parse_args()
with open(args.filename, "r") as file:
    config = yaml.safe_load(file)
seed_everything(config["exp_params"]["manual_seed"], True)
model = ConvVAE(**config["model_params"])
runner = Trainer(default_root_dir="logs", **config["trainer_params"])
runner.fit(model, torch.load("celeba_loader.pt"))
