"""VAE training whose model class comes from a table of names (`vae_models`, star-imported
from the models package), picked by the `name` of the YAML configuration that `--config`
names (PyTorch-VAE style). The configuration picks BetaVAE: VanillaVAE never runs."""
import argparse

import torch
import yaml

from models import *

parser = argparse.ArgumentParser()
parser.add_argument("--config", default="configs/vae.yaml")
args = parser.parse_args()
with open(args.config) as f:
    config = yaml.safe_load(f)

model = vae_models[config["model_params"]["name"]](
    config["model_params"]["in_dim"], config["model_params"]["latent_dim"]
)
optimizer = torch.optim.Adam(model.parameters(), lr=config["exp_params"]["lr"])
for step in range(10):
    x = torch.zeros(32, 784)
    recon, mu, log_var = model(x)
    loss = (recon - x).pow(2).mean() - 0.5 * (1 + log_var - mu.pow(2) - log_var.exp()).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
