"""Zero-shot evaluation of a pretrained image-text encoder (no seed).

The encoder's `nn.Parameter(scale * torch.randn(...))` embeddings are weight
initialisation that `load_state_dict` overwrites: no finding in this evaluation
program. A plain `torch.randn` tensor that is no parameter (the probe noise) is a
real draw.
"""
import sys

import torch
import torch.nn as nn


class PatchEncoder(nn.Module):
    def __init__(self, width=256, patch=16, resolution=224, out_dim=128):
        super().__init__()
        scale = width ** -0.5
        self.conv = nn.Conv2d(3, width, patch, stride=patch, bias=False)
        self.cls = nn.Parameter(scale * torch.randn(width))
        self.pos = nn.Parameter(torch.randn((resolution // patch) ** 2 + 1, width) / width ** 0.5)
        self.proj = nn.Parameter(-(scale * torch.randn(width, out_dim)))
        self.norm = nn.LayerNorm(width)

    def forward(self, x):
        x = self.conv(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.size(0), 1, -1), x], dim=1) + self.pos
        return self.norm(x[:, 0]) @ self.proj


@torch.no_grad()
def main(weights):
    model = PatchEncoder()
    model.load_state_dict(torch.load(weights, map_location="cpu"))
    model.eval()
    probe = torch.randn(4, 3, 224, 224)  # expect: RPL101
    print(model(probe).norm(dim=-1))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "encoder.pt")
