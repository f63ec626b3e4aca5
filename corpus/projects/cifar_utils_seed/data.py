import torch
from torch.utils.data import DataLoader, random_split
from torchvision import datasets, transforms

MEAN, STD = (0.4914, 0.4822, 0.4465), (0.2470, 0.2435, 0.2616)


def get_loaders(root, batch_size, val_size=5000, workers=0):
    train_tf = transforms.Compose([
        transforms.RandomCrop(32, padding=4),
        transforms.RandomHorizontalFlip(),
        transforms.ToTensor(),
        transforms.Normalize(MEAN, STD),
    ])
    test_tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize(MEAN, STD)])
    full = datasets.CIFAR10(root, train=True, download=True, transform=train_tf)
    train_set, val_set = random_split(full, [len(full) - val_size, val_size])
    test_set = datasets.CIFAR10(root, train=False, download=True, transform=test_tf)
    return (
        DataLoader(train_set, batch_size=batch_size, shuffle=True, num_workers=workers),
        DataLoader(val_set, batch_size=512, num_workers=workers),
        DataLoader(test_set, batch_size=512, num_workers=workers),
    )


def mixup(x, y, alpha=0.2):
    lam = torch.distributions.Beta(alpha, alpha).sample().item()
    perm = torch.randperm(x.size(0), device=x.device)
    return lam * x + (1 - lam) * x[perm], y, y[perm], lam
