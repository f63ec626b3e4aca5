"""A tabular MLP with batch norm, trained on CUDA: no convolution or cuDNN RNN runs, so no
cuDNN determinism flag matters (no RPL302), and linear layers and batch norm run no kernel
that deterministic mode replaces (no RPL301). It sets no cuDNN flag (a flag would be
taken as a sign that a model the source does not show runs cuDNN)."""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)
# no cuDNN flag set: nothing hints at a cuDNN model
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Sequential(nn.Linear(20, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 2)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
features = torch.from_numpy(np.random.rand(512, 20).astype("float32")).to(device)
labels = torch.from_numpy(np.random.randint(0, 2, 512)).to(device)
for epoch in range(10):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(features), labels)
    loss.backward()
    opt.step()
