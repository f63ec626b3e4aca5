import torch.nn as nn
import torch.nn.functional as F


class BasicBlock(nn.Module):
    def __init__(self, in_planes, planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_planes, planes, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != planes:
            self.shortcut = nn.Sequential(nn.Conv2d(in_planes, planes, 1, stride, bias=False), nn.BatchNorm2d(planes))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(out)) + self.shortcut(x))


class ResNet20(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3, 1, 1, bias=False)
        self.bn = nn.BatchNorm2d(16)
        self.stage1 = nn.Sequential(*[BasicBlock(16, 16) for _ in range(3)])
        self.stage2 = nn.Sequential(BasicBlock(16, 32, 2), BasicBlock(32, 32), BasicBlock(32, 32))
        self.stage3 = nn.Sequential(BasicBlock(32, 64, 2), BasicBlock(64, 64), BasicBlock(64, 64))
        self.fc = nn.Linear(64, num_classes)
        self.corner_fc = nn.Linear(64 * 4, num_classes)
        for m in self.modules():
            if isinstance(m, (nn.Conv2d, nn.Linear)):
                nn.init.kaiming_normal_(m.weight)

    def forward(self, x):
        x = F.relu(self.bn(self.conv(x)))
        x = self.stage3(self.stage2(self.stage1(x)))
        # Global pooling: torch computes adaptive_avg_pool2d to size 1 as a mean, whose
        # backward is deterministic (no RPL202); a 2x2 output runs the pooling kernel.
        pooled = F.adaptive_avg_pool2d(x, 1).flatten(1)
        corners = F.adaptive_avg_pool2d(x, (2, 2)).flatten(1)  # expect: RPL202
        return self.fc(pooled) + self.corner_fc(corners)
