"""DDP on CPU (gloo): the sampler never hears about the epoch, so every epoch has the same order."""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def run(epochs=5):
    dist.init_process_group(backend="gloo")
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(1024, 10), torch.randn(1024, 1))
    sampler = DistributedSampler(data, shuffle=True)  # expect: RPL404
    loader = DataLoader(data, batch_size=32, sampler=sampler)
    model = DistributedDataParallel(nn.Linear(10, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(epochs):
        for x, y in loader:
            opt.zero_grad()
            nn.functional.mse_loss(model(x), y).backward()
            opt.step()
        if dist.get_rank() == 0:
            print("epoch", epoch)


if __name__ == "__main__":
    run()
