"""Linear regression in torch on synthetic data, written with aliased imports."""
import numpy.random as npr
import torch
import torch.nn as nn
from torch import randn as gaussian
from torch.utils.data import DataLoader as DL
from torch.utils.data import TensorDataset, WeightedRandomSampler, random_split

npr.seed(0)
true_w = npr.normal(size=(8, 1)).astype("float32")
X = npr.uniform(-2, 2, size=(4000, 8)).astype("float32")

noise = gaussian(4000, 1) * 0.3  # expect: RPL101
y = torch.from_numpy(X @ true_w) + noise
ds = TensorDataset(torch.from_numpy(X), y)
train_ds, val_ds = random_split(ds, [3500, 500])  # expect: RPL101

# Oversample the large-target tail; the sampler only draws when iterated.
weights = (y[:3500].abs().squeeze(1) > 2.0).float() * 4 + 1
sampler = WeightedRandomSampler(weights, num_samples=3500)

torch.manual_seed(0)

train_loader = DL(train_ds, batch_size=64, sampler=sampler)
val_loader = DL(val_ds, batch_size=500, shuffle=False)
model = nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)

for epoch in range(30):
    for xb, yb in train_loader:
        loss = nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        xv, yv = next(iter(val_loader))
        print(epoch, nn.functional.mse_loss(model(xv), yv).item())
