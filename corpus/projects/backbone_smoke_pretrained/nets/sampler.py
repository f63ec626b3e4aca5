"""A decoder module whose `__main__` block loads a trained checkpoint itself and decodes
random latent codes into samples it saves: an evaluation run of its own, whose noise
draws from an unseeded torch (reported)."""
import torch
import torch.nn as nn


class NoiseDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 64))

    def forward(self, z):
        return self.net(z)


if __name__ == "__main__":
    decoder = NoiseDecoder()
    decoder.load_state_dict(torch.load("decoder.pt"))
    with torch.no_grad():
        samples = decoder(torch.randn(16, 8))  # expect: RPL101
    torch.save(samples, "samples.pt")
