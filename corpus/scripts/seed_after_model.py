"""Small CNN for Fashion-MNIST. The model is built before the seed is set (a classic)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

SEED = 42


class SmallCNN(nn.Module):
    def __init__(self, channels=32, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, channels, 3, padding=1)  # expect: RPL101
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels * 2, 3, padding=1)  # expect: RPL101
        self.bn2 = nn.BatchNorm2d(channels * 2)
        self.drop = nn.Dropout2d(0.1)
        self.head = nn.Linear(channels * 2 * 7 * 7, num_classes)  # expect: RPL101
        self._init_weights()

    def _init_weights(self):
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")  # expect: RPL101
                nn.init.zeros_(m.bias)
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.ones_(m.weight)
                nn.init.constant_(m.bias, 0.0)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = self.drop(F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2))
        return self.head(x.flatten(1))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # expect: RPL302  (no RPL301: no kernel that deterministic mode replaces)
    model = SmallCNN().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)

    # "make it reproducible"
    torch.manual_seed(SEED)
    torch.cuda.manual_seed_all(SEED)

    train = datasets.FashionMNIST("data", train=True, download=True, transform=transforms.ToTensor())
    loader = DataLoader(train, batch_size=128, shuffle=True, drop_last=True)
    for epoch in range(5):
        model.train()
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
