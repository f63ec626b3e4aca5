"""Hogwild regression with plain multiprocessing: the workers are built in a list
comprehension and all update one shared linear model."""
import multiprocessing as mp

import torch


def fit(worker_id, model, steps):
    torch.manual_seed(100 + worker_id)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for _ in range(steps):
        x = torch.randn(32, 8)
        loss = (model(x) - x.sum(1, keepdim=True)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 1)
    model.share_memory()
    procs = [mp.Process(target=fit, args=(i, model, 1000)) for i in range(4)]  # expect: RPL405
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    print(model.weight)
