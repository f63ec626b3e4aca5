"""Few-shot episode sampler. Every draw goes through an explicit, seeded generator.

Nothing here touches a global RNG except the model init, which follows manual_seed.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, random_split

SEED = 3

# `random` is a seeded NumPy Generator here, not the standard-library module.
random = np.random.default_rng(SEED)


def randn(*shape, generator):
    """Project helper with a scary name: it only ever uses the generator it is given."""
    return torch.randn(*shape, generator=generator)


def sample_episode(labels, n_way=5, k_shot=1):
    classes = random.choice(np.unique(labels), size=n_way, replace=False)
    support = [random.choice(np.flatnonzero(labels == c), size=k_shot, replace=False) for c in classes]
    return classes, sorted(np.concatenate(support).tolist())


def main():
    g = torch.Generator().manual_seed(SEED)
    features = randn(600, 64, generator=g)
    labels = np.repeat(np.arange(20), 30)
    random.shuffle(labels)
    jitter = torch.empty(600, 64).uniform_(-0.01, 0.01, generator=g)
    ds = TensorDataset(features + jitter, torch.from_numpy(labels))
    train_ds, test_ds = random_split(ds, [500, 100], generator=g)
    loader = DataLoader(train_ds, batch_size=50, shuffle=True, generator=g)

    torch.manual_seed(SEED)
    torch.cuda.manual_seed_all(SEED)
    encoder = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 32))
    nn.init.zeros_(encoder[2].bias)
    nn.init.eye_(encoder[0].weight)

    opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)
    for xb, yb in loader:
        z = encoder(xb)
        loss = torch.cdist(z, z).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    classes, support = sample_episode(labels)
    print("episode classes:", classes, "support:", support)


if __name__ == "__main__":
    main()
