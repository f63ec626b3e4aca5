"""The look-alike: the class sums feed the loss (a center loss), so `index_add_` runs in
what training computes, with a gradient, on CUDA: RPL301 at the device the program
selects, with the op as its evidence."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda")  # expect: RPL301
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
features = torch.randn(4096, 64)
labels = torch.randint(0, 10, (4096,))

for epoch in range(5):
    for start in range(0, 4096, 256):
        x, y = features[start:start + 256].to(device), labels[start:start + 256].to(device)
        logits = model(x)
        sums = torch.zeros(10, 10, device=device).index_add_(0, y, logits)
        centers = sums / torch.bincount(y, minlength=10).clamp(min=1).unsqueeze(1)
        loss = F.cross_entropy(logits, y) + 0.01 * (logits - centers[y]).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
