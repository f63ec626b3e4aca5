"""Look-alike of star_import_models: seeded before `SimpleDLA()` (reached through the star
imports) builds the network."""
import torch
import torch.nn.functional as F

from models import *


def main():
    torch.manual_seed(0)
    net = SimpleDLA()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    for _ in range(3):
        inputs, targets = torch.zeros(8, 3, 32, 32), torch.zeros(8, dtype=torch.long)
        loss = F.cross_entropy(net(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
