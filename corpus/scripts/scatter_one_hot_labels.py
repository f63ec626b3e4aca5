"""Label smoothing with a one-hot scatter, and a scatter of features into class buckets.

`scatter_` along dim 1 with `labels.unsqueeze(1)` writes one element per row (its `src`
a tensor, so the op is on torch's list): no two writes meet, so its result is the same on
every run (look-alike: not evidence). The class-bucket scatter along dim 0 sends several rows to the same bucket, and
with a tensor `src` CUDA leaves the surviving write to thread timing: the program trains
through it without deterministic mode (RPL301, that scatter as its evidence).
"""
import torch
from torch import nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"  # expect: RPL301
model = nn.Linear(16, 4).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    x = torch.randn(8, 16, device=device)
    labels = torch.randint(0, 4, (8,), device=device)
    logits = model(x)
    confidence = torch.full((8, 1), 0.9, device=device)
    smooth = torch.full_like(logits, 0.1 / 3).scatter_(1, labels.unsqueeze(1), confidence)
    loss = -(smooth * logits.log_softmax(dim=1)).sum(dim=1).mean()
    buckets = torch.zeros(4, 4, device=device).scatter_(0, labels.unsqueeze(1).expand(-1, 4), logits)
    loss = loss + buckets.square().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
