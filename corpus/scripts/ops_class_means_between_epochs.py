"""A training program that, between epochs, sums the features of each class under
`torch.inference_mode()` for a nearest-class-mean accuracy it prints. `index_add_` is
nondeterministic on CUDA, but no gradient flows there and nothing it computes trains a
weight: no RPL301 from it. The training step itself runs only deterministic kernels
(linear layers, cross-entropy), so the program gets no RPL301 at all."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda")
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
features = torch.randn(4096, 64)
labels = torch.randint(0, 10, (4096,))


@torch.inference_mode()
def class_mean_accuracy(net):
    sums = torch.zeros(10, 10, device=device)
    sums.index_add_(0, labels.to(device), net(features.to(device)))
    means = sums / torch.bincount(labels, minlength=10).to(device).unsqueeze(1)
    predicted = torch.cdist(net(features.to(device)), means).argmin(1)
    return (predicted.cpu() == labels).float().mean().item()


for epoch in range(5):
    for start in range(0, 4096, 256):
        x, y = features[start:start + 256].to(device), labels[start:start + 256].to(device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(epoch, class_mean_accuracy(model))
