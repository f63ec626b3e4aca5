"""A beta-VAE: the architecture the configuration picks."""
import torch
from torch import nn

__all__ = ["BetaVAE"]


class BetaVAE(nn.Module):
    def __init__(self, in_dim, latent_dim, beta=4.0):
        super().__init__()
        self.beta = beta
        self.encoder = nn.Linear(in_dim, 2 * latent_dim)  # expect: RPL101
        self.decoder = nn.Linear(latent_dim, in_dim)  # expect: RPL101

    def forward(self, x):
        mu, log_var = self.encoder(x).chunk(2, dim=1)
        z = mu + torch.randn_like(mu) * (0.5 * log_var).exp()  # expect: RPL101
        return self.decoder(z), mu, log_var
