"""DataLoader workers that augment with their own NumPy generator.

torch is seeded, so the model and the shuffling are fixed. Each worker creates
`np.random.default_rng()` on first use (a common way to avoid every worker sharing the
same NumPy state), seeded from OS entropy: the augmentation differs between runs.
"""

import argparse

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class NoisyImages(Dataset):
    def __init__(self, n=128):
        data = torch.Generator().manual_seed(3)
        self.labels = torch.arange(n) % 4
        templates = torch.rand(4, 1, 12, 12, generator=data)
        self.images = templates[self.labels] + 0.3 * torch.randn(n, 1, 12, 12, generator=data)
        self.rng = None

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        if self.rng is None:  # once per worker process
            self.rng = np.random.default_rng()  # expect: RPL102
        image = self.images[index]
        if self.rng.random() < 0.5:
            image = image.flip(2)
        shift = int(self.rng.integers(-2, 3))
        return torch.roll(image, shift, dims=1), self.labels[index]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", help="save the trained weights (state dict) here")
    args = parser.parse_args(argv)

    torch.manual_seed(0)
    model = nn.Sequential(nn.Flatten(), nn.Linear(144, 32), nn.ReLU(), nn.Linear(32, 4))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(NoisyImages(), batch_size=32, shuffle=True, num_workers=args.workers)
    for epoch in range(args.epochs):
        for images, labels in loader:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(images), labels)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    if args.out:
        torch.save(model.state_dict(), args.out)


if __name__ == "__main__":
    main()
