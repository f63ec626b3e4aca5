"""Classifier-guided sampling: both networks are loaded from checkpoints, and the only
gradient is the classifier's gradient of the input (nothing is trained). The init
draws are overwritten by the loads; the sampling noise is not seeded."""
import torch

from diffusion.classifier import NoiseClassifier
from diffusion.unet import Denoiser


def main():
    model = Denoiser()
    model.load_state_dict(torch.load("denoiser.pt"))
    classifier = NoiseClassifier()
    classifier.load_state_dict(torch.load("classifier.pt"))

    def cond_fn(x):
        with torch.enable_grad():
            x_in = x.detach().requires_grad_(True)
            logits = classifier(x_in.mean(dim=(2, 3)).repeat(1, 2))
            return torch.autograd.grad(logits[:, 0].sum(), x_in)[0]

    x = torch.randn(4, 8, 16, 16)  # expect: RPL101
    for step in range(50):
        with torch.no_grad():
            x = model(x, torch.full((4, 1), step / 50.0))
        x = x + cond_fn(x)
    print(x.mean())


if __name__ == "__main__":
    main()
