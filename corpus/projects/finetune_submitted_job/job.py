import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        return self.fc(F.relu(self.conv(x)).mean(dim=(2, 3)))


class FinetuneJob:
    def __init__(self, args):
        self.args = args

    def __call__(self):
        torch.manual_seed(0)
        device = torch.device("cuda")  # expect: RPL302
        model = Net().to(device)
        model.load_state_dict(torch.load(self.args.checkpoint))
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        data = torch.load("train.pt")
        for _ in range(self.args.epochs):
            for x, y in data:
                loss = F.cross_entropy(model(x.to(device)), y.to(device))
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
