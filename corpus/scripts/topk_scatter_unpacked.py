"""Top-k filtering of a trained model's logits: the indices `torch.topk` returns (here
unpacked into two names) repeat no value along its axis, so the scatter that writes the
kept logits back writes each element once and is deterministic; the same scatter along
another axis than the top-k's may write one element twice (look-alike below)."""
import torch
import torch.nn as nn


def keep_top_k(logits, k):
    values, indices = torch.topk(logits, k)
    return torch.full_like(logits, float("-inf")).scatter_(-1, indices, values)


def keep_top_rows(logits, k):
    values, indices = logits.topk(k, dim=0)
    return torch.zeros_like(logits).scatter_(-1, indices, values)


torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
device = torch.device("cuda")  # expect: RPL301
head = nn.Linear(16, 32).to(device)
opt = torch.optim.SGD(head.parameters(), lr=0.1)
for step in range(10):
    logits = head(torch.randn(8, 16, device=device))
    loss = keep_top_k(logits, 4).logsumexp(-1).mean() + keep_top_rows(logits, 4).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
