"""Decodes two random codes with the VAE: NumPy is never seeded before `generate` draws."""
import torch

from model import VAE

torch.manual_seed(0)
vae = VAE()
print(vae.generate(2))
