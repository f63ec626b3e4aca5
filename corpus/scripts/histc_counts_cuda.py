"""Trains a small mixture of experts on CUDA and logs how many tokens each expert gets
with `torch.histc`. histc only counts: every atomic add on the GPU is the same +1, so the
counts are the same in any order and on every run (no RPL202 while deterministic mode is
off). The look-alike, histc_counts_deterministic.py, turns the mode on: there it raises."""
import torch
import torch.nn as nn

torch.manual_seed(0)
router = nn.Linear(16, 4).cuda()
optimizer = torch.optim.SGD(router.parameters(), lr=0.1)
for step in range(10):
    tokens = torch.randn(64, 16, device="cuda")
    logits = router(tokens)
    expert = logits.argmax(dim=1)
    counts = torch.histc(expert.float(), bins=4, min=0, max=3)
    loss = logits.logsumexp(dim=1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, counts.tolist())
