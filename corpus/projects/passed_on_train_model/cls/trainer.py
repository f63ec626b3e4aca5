"""pycls-style trainer: `train_model` sets the environment up (seeds first), then trains
with mixup drawn from NumPy. It is only passed to the launcher, never called by name."""
import numpy as np
import torch
import torch.nn as nn


def setup_env(seed=1):
    np.random.seed(seed)
    torch.manual_seed(seed)


def train_model(epochs=2):
    setup_env()
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    inputs, labels = torch.ones(64, 16), torch.zeros(64, dtype=torch.long)
    for _ in range(epochs):
        lam = np.random.beta(1.0, 1.0)
        mixed = lam * inputs + (1 - lam) * inputs.flip(0)
        loss = nn.functional.cross_entropy(model(mixed), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
