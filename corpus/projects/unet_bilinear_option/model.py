"""A U-Net-style decoder whose upsampling is chosen by a constructor parameter."""
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, channels, bilinear=True):
        super().__init__()
        if bilinear:
            self.up = nn.Upsample(scale_factor=2, mode="bicubic", align_corners=True)  # expect: RPL202
        else:
            self.up = nn.ConvTranspose2d(channels, channels, 2, stride=2)
        self.out = nn.Conv2d(channels, 1, 1)

    def forward(self, x):
        return self.out(self.up(x))
