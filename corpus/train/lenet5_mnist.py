"""LeNet-5 on MNIST-shaped data (LeCun et al. 1998), as in Chen et al.'s experiments.

The data set is fixed (a seeded generator stands in for MNIST on disk); the training is
not seeded at all: weight initialisation and shuffling differ from run to run.
"""

import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

try:
    from reprolint.runtime import metric
except ImportError:  # reprolint is optional: the script runs without it

    def metric(name, value):
        pass


def mnist_like(n, templates, generator):
    """Ten fixed class templates plus noise: learnable like digits, and no download."""
    labels = torch.arange(n) % 10
    images = templates[labels] + 1.0 * torch.randn(n, 1, 28, 28, generator=generator)
    return images, labels


class LeNet5(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 6, 5, padding=2), nn.Tanh(), nn.AvgPool2d(2),  # expect: RPL101
            nn.Conv2d(6, 16, 5), nn.Tanh(), nn.AvgPool2d(2),  # expect: RPL101
        )
        self.classifier = nn.Sequential(
            nn.Linear(16 * 5 * 5, 120), nn.Tanh(),  # expect: RPL101
            nn.Linear(120, 84), nn.Tanh(),  # expect: RPL101
            nn.Linear(84, 10),  # expect: RPL101
        )

    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1))


def evaluate(model, images, labels):
    model.eval()
    with torch.no_grad():
        predictions = model(images).argmax(1)
    correct = predictions == labels
    per_class = [correct[labels == c].float().mean().item() for c in range(10)]
    return correct.float().mean().item(), per_class, predictions


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--out", help="save the trained weights (state dict) here")
    args = parser.parse_args(argv)

    data = torch.Generator().manual_seed(2020)
    templates = (torch.rand(10, 1, 28, 28, generator=data) > 0.7).float()
    train_x, train_y = mnist_like(512, templates, data)
    test_x, test_y = mnist_like(256, templates, data)

    model = LeNet5()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    loader = DataLoader(TensorDataset(train_x, train_y), batch_size=args.batch_size, shuffle=True)  # expect: RPL101
    for epoch in range(args.epochs):
        model.train()
        for images, labels in loader:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(images), labels)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")

    accuracy, per_class, predictions = evaluate(model, test_x, test_y)
    print(f"test accuracy {accuracy:.4f}")
    metric("accuracy", accuracy)
    metric("per_class_accuracy", per_class)
    metric("predictions", predictions)
    if args.out:
        torch.save(model.state_dict(), args.out)


if __name__ == "__main__":
    main()
