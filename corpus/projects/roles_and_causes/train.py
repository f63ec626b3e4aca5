import numpy as np
import torch
from torch.utils.data import DataLoader

from data import Jitter
from model import Net


def parse_args():
    return {"epochs": 2}


class Probe(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.head = torch.nn.Linear(2, 1)


def main():
    torch.manual_seed(0)  # (RPL105 said by RPL101 at the unseeded draw, this call related)
    device = torch.device("cuda")  # expect: RPL302  (no RPL301: no kernel that deterministic mode replaces)
    net = Net().to(device)
    order = np.random.permutation(10)  # expect: RPL101
    picks = np.random.choice(order, 3)  # expect: RPL101
    loader = DataLoader(Jitter(64), batch_size=8, shuffle=True, num_workers=4)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for batch in loader:
        loss = net(batch.float().view(-1, 3, 1, 1).to(device)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(picks)


if __name__ == "__main__":
    main()
