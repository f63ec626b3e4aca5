import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def svhn_loaders(root="data", batch_size=128):
    tf = transforms.ToTensor()
    train = datasets.SVHN(root, split="train", download=True, transform=tf)
    test = datasets.SVHN(root, split="test", download=True, transform=tf)
    return DataLoader(train, batch_size=batch_size, shuffle=True), DataLoader(test, batch_size=1024)  # expect: RPL101


def fit(model, train_loader, test_loader, lr, epochs):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for _ in range(epochs):
        model.train()
        for x, y in train_loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        correct = sum((model(x).argmax(1) == y).sum().item() for x, y in test_loader)
    return correct / len(test_loader.dataset)
