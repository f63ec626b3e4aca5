import torch
from torch.utils.data import DataLoader

from augment import GammaSet, RandomGamma
from model import Net


def main():
    torch.manual_seed(0)
    net = Net()
    loader = DataLoader(GammaSet(64, RandomGamma()), batch_size=8, shuffle=True, num_workers=2)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for batch in loader:
        loss = net(batch.float().view(-1, 3, 1, 1)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
