"""The same GCN with deterministic mode on: index_add_ and scatter_add use the deterministic kernels."""
import os

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.use_deterministic_algorithms(True)

device = torch.device("cuda")
x = torch.load("cora_x.pt").to(device)
src, dst = torch.load("cora_edges.pt").to(device)
lin = nn.Linear(x.size(1), 16).to(device)
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
for step in range(100):
    agg = torch.zeros(x.size(0), 16, device=device).index_add_(0, dst, lin(x)[src])
    counts = torch.zeros(x.size(0), device=device).scatter_add_(0, dst, torch.ones(dst.numel(), device=device))
    loss = (agg / counts.clamp(min=1).unsqueeze(1)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
