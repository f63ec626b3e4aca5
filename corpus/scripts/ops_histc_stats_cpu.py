"""Feature statistics on the CPU: histograms and weighted counts (no GPU, so no CUDA-only op findings)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
features = torch.randn(10_000, 8)
hist = torch.histc(features[:, 0], bins=50, min=-3, max=3)
labels = torch.randint(0, 5, (10_000,))
weights = torch.rand(10_000)
per_class = torch.bincount(labels, weights=weights, minlength=5)
sums = torch.zeros(5, 8).index_add_(0, labels, features)
probe = nn.Linear(8, 5)
opt = torch.optim.Adam(probe.parameters())
for epoch in range(20):
    loss = nn.functional.cross_entropy(probe(features), labels, weight=1.0 / per_class.clamp(min=1))
    opt.zero_grad()
    loss.backward()
    opt.step()
print(hist.argmax().item(), (sums / per_class.unsqueeze(1)).norm().item())
