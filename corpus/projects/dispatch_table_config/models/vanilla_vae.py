"""A plain VAE: its reparameterisation draws noise in every forward pass."""
import torch
from torch import nn

__all__ = ["VanillaVAE"]


class VanillaVAE(nn.Module):
    def __init__(self, in_dim, latent_dim):
        super().__init__()
        self.encoder = nn.Linear(in_dim, 2 * latent_dim)
        self.decoder = nn.Linear(latent_dim, in_dim)

    def forward(self, x):
        mu, log_var = self.encoder(x).chunk(2, dim=1)
        z = mu + torch.randn_like(mu) * (0.5 * log_var).exp()
        return self.decoder(z), mu, log_var
