"""Trains the denoiser; torch is never seeded, so its first layer (built through the
`linear` helper that forwards **kwargs) starts from OS entropy."""
import torch

from diffusion.unet import Denoiser


def main():
    model = Denoiser()
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    images = torch.linspace(-1, 1, 4 * 8 * 16 * 16).reshape(4, 8, 16, 16)
    for step in range(10000):
        t = torch.full((4, 1), 0.5)
        loss = (model(images, t) - images).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save(model.state_dict(), "denoiser.pt")


if __name__ == "__main__":
    main()
