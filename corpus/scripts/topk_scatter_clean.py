"""Top-k filtering whose scatter writes along the axis `topk` sorted: its indices repeat
no value there, so each element is written once and the scatter is deterministic; the
same holds for `sort` indices taken with `x.sort(dim)[1]` and `.indices`."""
import torch
import torch.nn as nn


def keep_top_k(logits, k):
    v, i = torch.topk(logits, min(k, logits.size(-1)))
    return torch.full_like(logits, float("-inf")).scatter_(-1, i, v)


def rank_order(scores):
    order = scores.sort(1).indices
    return torch.zeros_like(scores).scatter_(1, order, scores)


torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
device = torch.device("cuda")
head = nn.Linear(16, 32).to(device)
opt = torch.optim.SGD(head.parameters(), lr=0.1)
for step in range(10):
    logits = head(torch.randn(8, 16, device=device))
    loss = keep_top_k(logits, 4).logsumexp(-1).mean() + rank_order(logits).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
