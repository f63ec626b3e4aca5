"""A VGG trunk reused as a segmentation encoder: its pooling head is built (to load the
checkpoint's layout), never read by `forward`, and deleted after construction; the
ResNet trunk beside it keeps and runs its own adaptive pooling."""
from torch import nn


class VGG(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.features = features
        self.avgpool = nn.AdaptiveAvgPool2d((7, 7))
        self.classifier = nn.Linear(512 * 7 * 7, 1000)

    def forward(self, x):
        # x = self.avgpool(x)
        feat1 = self.features[:4](x)
        feat2 = self.features[4:](feat1)
        return [feat1, feat2]


class Trunk(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(64, 64, 3, padding=1)
        self.avgpool = nn.AdaptiveAvgPool2d((3, 3))  # expect: RPL202

    def forward(self, x):
        return self.avgpool(self.conv(x))


def vgg16():
    layers = [nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.Conv2d(64, 64, 3, padding=1), nn.ReLU()]
    layers += [nn.MaxPool2d(2), nn.Conv2d(64, 64, 3, padding=1), nn.ReLU()]
    model = VGG(nn.Sequential(*layers))
    del model.avgpool
    del model.classifier
    return model
