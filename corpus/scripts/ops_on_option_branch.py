"""Look-alike: bilinear upsampling (no deterministic CUDA backward) is built only with
`--bilinear`, which is off by default; the default run trains a transposed convolution.
(cuDNN trains here, and nothing turns cuDNN's determinism on.)"""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--bilinear", action="store_true", help="upsample with bilinear interpolation")
parser.add_argument("--epochs", type=int, default=3)
args = parser.parse_args()
torch.manual_seed(0)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        if args.bilinear:
            self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)
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
