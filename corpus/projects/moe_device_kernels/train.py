"""Trains a tiny mixture of experts on CUDA, or on an Ascend NPU with `--npu`."""
import argparse

import torch

p = argparse.ArgumentParser()
p.add_argument("--npu", action="store_true")
args = p.parse_args()

if args.npu:
    import npu_moe as moe
    device = "npu"
else:
    import cuda_moe as moe
    device = "cuda"  # expect: RPL301

torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False

experts = torch.nn.Linear(8, 8).to(device)
optimizer = torch.optim.SGD(experts.parameters(), lr=0.1)
for _ in range(5):
    tokens = torch.randn(16, 8, device=device)
    ids = torch.randint(0, 4, (16,), device=device)
    hidden = experts(tokens)
    gates = torch.rand(16, device=device)
    load = moe.expert_load(ids, gates, 4)
    mixed = moe.combine(hidden, ids, torch.zeros(4, 8, device=device))
    loss = mixed.pow(2).mean() + load.sum() * 0
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
