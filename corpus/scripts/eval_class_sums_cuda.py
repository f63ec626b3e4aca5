"""An evaluation report on CUDA that sums per-class scores with `scatter_add_`: a forward
op in a program that trains nothing, so no RPL301 covers it and RPL201 reports the site
(the float sums come out in a different order on each run). The per-class counts are
integers, whose atomic adds are exact."""
import torch

torch.manual_seed(0)
device = torch.device("cuda")
scores = torch.linspace(0, 1, 1000, device=device)
labels = torch.arange(1000, device=device) % 10
totals = torch.zeros(10, device=device).scatter_add_(0, labels, scores)  # expect: RPL201
counts = torch.bincount(labels, minlength=10)
print((totals / counts).tolist())
