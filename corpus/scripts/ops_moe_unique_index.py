"""Mixture-of-experts layer trained on CUDA: each expert's output is added back with
`index_add_`. When the index is the nonzero positions of a 1-D token mask (or a
`torch.unique`/`arange`), no position repeats, every output row gets one add and the
sum is the same on every run. The row indices of `torch.where` on a 2-D mask repeat
(a token routed to two experts' slots), and so does a computed routing table."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
np.random.seed(0)
device = torch.device("cuda")  # expect: RPL301


class SparseMoE(nn.Module):
    def __init__(self, dim, n_experts, top_k):
        super().__init__()
        self.router = nn.Linear(dim, n_experts)
        self.experts = nn.ModuleList([nn.Linear(dim, dim) for _ in range(n_experts)])
        self.top_k = top_k

    def forward(self, x):
        flat = x.reshape(-1, x.shape[-1])
        probs, chosen = torch.topk(F.softmax(self.router(flat), dim=-1), self.top_k, dim=-1)
        out = torch.zeros_like(flat)
        for expert_id in torch.unique(chosen).tolist():
            hit = (chosen == expert_id).any(dim=-1)
            rows = hit.nonzero(as_tuple=False).squeeze(-1)
            picked = flat.index_select(0, rows)
            weight = (probs * (chosen == expert_id)).sum(-1, keepdim=True)
            out.index_add_(0, rows, self.experts[expert_id](picked) * weight.index_select(0, rows))
            spread = torch.nonzero(hit).flatten().long()
            out.index_add_(0, spread, 0.0 * flat.index_select(0, spread))
        slots = torch.where(chosen == 0)[0]
        routed = flat.index_select(0, slots)  # (evidence of the program's RPL301, reported there)
        out.index_add_(0, slots, routed)  # (evidence of the program's RPL301, reported there)
        table = chosen[:, 0] % 2
        out.index_add_(0, table, flat)  # (evidence of the program's RPL301, reported there)
        return out.reshape(x.shape)


model = SparseMoE(16, 4, 2).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
for step in range(100):
    batch = torch.randn(8, 12, 16, device=device)
    loss = model(batch).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
