"""A tabular MLP with batch norm, trained on CUDA: no convolution or cuDNN RNN runs, so no
cuDNN determinism flag matters (no RPL302), and linear layers and batch norm run no kernel
that deterministic mode replaces (no RPL301). The script still sets
`cudnn.benchmark = False`, which changes nothing here."""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)
torch.backends.cudnn.benchmark = False
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
