import torch.nn as nn


class ConvNet(nn.Module):
    """VGG-ish net for 32x32 digits."""

    def __init__(self, width=32, p_drop=0.25):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1),  # expect: RPL101
            nn.BatchNorm2d(width),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(width, 2 * width, 3, padding=1),  # expect: RPL101
            nn.BatchNorm2d(2 * width),
            nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(
            nn.Flatten(),
            nn.Dropout(p_drop),  # expect: RPL101
            nn.Linear(2 * width * 8 * 8, 10),  # expect: RPL101
        )

    def forward(self, x):
        return self.classifier(self.features(x))
