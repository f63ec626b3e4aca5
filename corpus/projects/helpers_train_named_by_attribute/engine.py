"""Training and evaluation helpers of a classifier. `evaluate` switches the model out
of training mode with `model.train(False)`: a method of the model, not this module's
`train`."""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader


def train(model, dataset, epochs=10, lr=0.1):
    loader = DataLoader(dataset, batch_size=64, shuffle=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    model.train()
    for epoch in range(epochs):
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return model


@torch.no_grad()
def evaluate(model, dataset):
    model.train(False)
    correct = 0
    for x, y in DataLoader(dataset, batch_size=256):
        correct += (model(x).argmax(1) == y).sum().item()
    return correct / len(dataset)
