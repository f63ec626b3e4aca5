"""Distributed training whose validation pass builds its own DistributedSampler and
loader under `torch.no_grad()` each time it runs: the order it gives reaches only a mean
loss, no gradient, so it needs no `set_epoch`. The training sampler never gets one
either: every epoch repeats the first epoch's order (RPL404 there)."""
import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def validate(model, valset):
    model.eval()
    with torch.no_grad():
        sampler = DistributedSampler(valset)
        loader = DataLoader(valset, batch_size=16, sampler=sampler)
        total = 0.0
        for x, y in loader:
            total += F.mse_loss(model(x.cuda()), y.cuda()).item()
    model.train()
    return total / len(loader)


def main():
    dist.init_process_group("nccl")
    torch.manual_seed(0)
    trainset = TensorDataset(torch.rand(512, 8), torch.rand(512, 1))
    valset = TensorDataset(torch.rand(64, 8), torch.rand(64, 1))
    sampler = DistributedSampler(trainset)  # expect: RPL404
    loader = DataLoader(trainset, batch_size=16, sampler=sampler)
    model = DistributedDataParallel(torch.nn.Linear(8, 1).cuda())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(10):
        for x, y in loader:
            loss = F.mse_loss(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, validate(model, valset))


if __name__ == "__main__":
    main()
