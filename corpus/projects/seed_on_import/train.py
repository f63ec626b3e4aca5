"""Train TinyPointNet. Imports are isort-sorted, which puts `dataset` before `seeding`."""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

import dataset
import model
import seeding  # noqa: F401  (seeds random/numpy/torch on import)


def main(epochs=10):
    ds = dataset.PointClouds(dataset.TRAIN_LABELS)
    loader = DataLoader(ds, batch_size=32, shuffle=True)
    net = model.TinyPointNet()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for pts, y in loader:
            loss = F.cross_entropy(net(pts), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f} (seed {seeding.SEED})")


if __name__ == "__main__":
    main()
