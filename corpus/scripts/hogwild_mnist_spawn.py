"""Hogwild MNIST: the network lives in shared memory and every spawned process trains it
with its own optimizer, no locks (the classic lock-free SGD recipe)."""
import argparse

import torch
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x.flatten(1))))


def train_epoch(model, loader, optimizer):
    model.train()
    for data, target in loader:
        optimizer.zero_grad()
        F.cross_entropy(model(data), target).backward()
        optimizer.step()


def worker(rank, model, epochs, seed):
    torch.manual_seed(seed)
    dataset = datasets.MNIST("data", train=True, download=True, transform=transforms.ToTensor())
    generator = torch.Generator().manual_seed(seed)
    loader = DataLoader(dataset, batch_size=64, shuffle=True, generator=generator)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.5)
    for _ in range(epochs):
        train_epoch(model, loader, optimizer)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-processes", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    model = Net()
    model.share_memory()
    mp.spawn(worker, args=(model, args.epochs, args.seed), nprocs=args.num_processes)  # expect: RPL405
    torch.save(model.state_dict(), "hogwild.pt")


if __name__ == "__main__":
    main()
