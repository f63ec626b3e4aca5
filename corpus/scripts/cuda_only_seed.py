"""Tabular autoencoder for anomaly detection. The seeding block forgets the CPU generator."""
import random

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

SEED = 2023
random.seed(SEED)  # (RPL105 said by RPL101 at the unseeded draw, this call related)
np.random.seed(SEED)
torch.cuda.manual_seed(SEED)
torch.cuda.manual_seed_all(SEED)
torch.backends.cudnn.deterministic = True

device = "cuda" if torch.cuda.is_available() else "cpu"  # (no RPL301: no kernel that deterministic mode replaces)
frame = pd.read_csv("data/transactions.csv")
features = frame.drop(columns=["is_fraud"]).to_numpy(dtype=np.float32)
features = (features - features.mean(0)) / (features.std(0) + 1e-6)
normal_rows = features[frame["is_fraud"].to_numpy() == 0]
np.random.shuffle(normal_rows)

x = torch.from_numpy(normal_rows)
loader = DataLoader(TensorDataset(x), batch_size=256, shuffle=True)  # expect: RPL101

d = x.shape[1]
model = nn.Sequential(
    nn.Linear(d, 32),  # expect: RPL101
    nn.ReLU(),
    nn.Linear(32, 8),  # expect: RPL101
    nn.ReLU(),
    nn.Linear(8, 32),  # expect: RPL101
    nn.ReLU(),
    nn.Linear(32, d),  # expect: RPL101
).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(15):
    for (xb,) in loader:
        xb = xb.to(device)
        corrupted = xb * torch.bernoulli(torch.full_like(xb, 0.9))  # expect: RPL101
        loss = nn.functional.mse_loss(model(corrupted), xb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.5f}")

with torch.no_grad():
    scores = ((model(torch.from_numpy(features).to(device)) - torch.from_numpy(features).to(device)) ** 2).mean(1)
print("top anomalies:", scores.topk(10).indices.tolist())
