"""The program of histc_counts_cuda.py with deterministic mode on: its counts would be
the same on every run anyway, but torch raises on `histc` of a CUDA tensor under the
flag, so the program stops there."""
import os

import torch
import torch.nn as nn

os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
torch.use_deterministic_algorithms(True)
torch.manual_seed(0)
router = nn.Linear(16, 4).cuda()
optimizer = torch.optim.SGD(router.parameters(), lr=0.1)
for step in range(10):
    tokens = torch.randn(64, 16, device="cuda")
    logits = router(tokens)
    expert = logits.argmax(dim=1)
    counts = torch.histc(expert.float(), bins=4, min=0, max=3)  # expect: RPL202
    loss = logits.logsumexp(dim=1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, counts.tolist())
