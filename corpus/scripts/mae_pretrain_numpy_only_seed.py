"""Masked-autoencoder pre-training of a tiny ViT. The author seeded NumPy and stopped there."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, RandomSampler


class PatchEmbed(nn.Module):
    def __init__(self, img=32, patch=4, dim=192):
        super().__init__()
        self.proj = nn.Conv2d(3, dim, patch, patch)  # expect: RPL101
        self.num_patches = (img // patch) ** 2

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class TinyMAE(nn.Module):
    def __init__(self, dim=192, heads=3, depth=4, mask_ratio=0.75):
        super().__init__()
        self.embed = PatchEmbed(dim=dim)
        self.pos = nn.Parameter(torch.zeros(1, self.embed.num_patches, dim))
        self.attn = nn.ModuleList([nn.MultiheadAttention(dim, heads, batch_first=True) for _ in range(depth)])  # expect: RPL101
        self.mask_token = nn.Parameter(torch.empty(1, 1, dim).uniform_(-0.02, 0.02))  # expect: RPL101
        self.decoder = nn.Linear(dim, 4 * 4 * 3)  # expect: RPL101
        self.mask_ratio = mask_ratio
        nn.init.trunc_normal_(self.pos, std=0.02)  # expect: RPL101
        nn.init.xavier_uniform_(self.decoder.weight)  # expect: RPL101

    def random_masking(self, x):
        n, length, _ = x.shape
        keep = int(length * (1 - self.mask_ratio))
        ids = torch.argsort(torch.rand(n, length, device=x.device), dim=1)  # expect: RPL101
        return torch.gather(x, 1, ids[:, :keep, None].expand(-1, -1, x.size(-1))), ids

    def forward(self, imgs):
        x = self.embed(imgs) + self.pos
        x, ids = self.random_masking(x)
        for attn in self.attn:
            x = x + F.dropout(attn(x, x, x)[0], p=0.1, training=self.training)  # expect: RPL101
        return self.decoder(x), ids


def main(epochs=10):
    np.random.seed(0)  # (RPL105 said by RPL101 at the unseeded draw, this call related)
    images = np.load("data/cifar_train_uint8.npy")
    order = np.random.permutation(len(images))
    images = torch.from_numpy(images[order]).permute(0, 3, 1, 2).float() / 255.0
    run_tag = random.getrandbits(32)  # expect: RPL101
    loader = DataLoader(images, batch_size=256, sampler=RandomSampler(images))  # expect: RPL101
    model = TinyMAE()
    opt = torch.optim.AdamW(model.parameters(), lr=1.5e-4, weight_decay=0.05)
    for epoch in range(epochs):
        for imgs in loader:
            pred, _ = model(imgs)
            loss = F.mse_loss(pred, pred.detach() * 0 + imgs.mean())
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"[{run_tag:08x}] epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
