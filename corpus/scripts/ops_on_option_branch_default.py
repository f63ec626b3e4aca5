"""Bicubic upsampling (no deterministic CUDA backward) is what the default run trains:
`--no-bilinear` turns it off, so the op runs unless the user asks otherwise. (cuDNN
trains here too, and nothing turns cuDNN's determinism on.)"""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--no-bilinear", action="store_false", dest="bilinear", help="upsample with a transposed convolution")
parser.add_argument("--epochs", type=int, default=3)
args = parser.parse_args()
torch.manual_seed(0)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        if args.bilinear:
            self.up = nn.Upsample(scale_factor=2, mode="bicubic", align_corners=True)  # expect: RPL202
        else:
            self.up = nn.ConvTranspose2d(8, 8, 2, stride=2)
        self.out = nn.Conv2d(8, 1, 1)

    def forward(self, x):
        return self.out(self.up(x))


device = torch.device("cuda")  # expect: RPL302
model = Decoder().to(device)
optimizer = torch.optim.Adam(model.parameters())
for epoch in range(args.epochs):
    loss = model(torch.ones(2, 8, 16, 16, device=device)).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
