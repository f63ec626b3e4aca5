"""A noise-level classifier whose `__main__` block trains it for real (a loop of
optimizer steps): a training program, although other modules import this one."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class NoiseClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)  # expect: RPL101

    def forward(self, x):
        return self.fc(x)


if __name__ == "__main__":
    model = NoiseClassifier()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1000):
        x = torch.linspace(0, 1, 16).repeat(8, 1)
        opt.zero_grad()
        F.cross_entropy(model(x), torch.arange(8) % 4).backward()
        opt.step()
    torch.save(model.state_dict(), "classifier.pt")
