import torch
from torch.utils.data import DataLoader

from data import Jitter
from model import Net


if __name__ == "__main__":
    torch.manual_seed(0)  # (RPL105 said by RPL101 at the unseeded draw, this call related)
    net = Net()
    # num_workers=0: __getitem__ runs in this process, where nothing seeds random/NumPy.
    loader = DataLoader(Jitter(64), batch_size=8, num_workers=0)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for batch in loader:
        loss = net(batch.float().view(-1, 3, 1, 1)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
