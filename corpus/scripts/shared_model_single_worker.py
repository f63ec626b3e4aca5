"""Look-alike of hogwild_processes_listcomp.py: the shared model is trained by exactly one
background process while the parent only watches a checkpoint counter; the DataLoader's
workers load data and never receive the model."""
import multiprocessing as mp

import torch
from torch.utils.data import DataLoader, TensorDataset


def fit(model, steps):
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(512, 8), torch.randn(512, 1))
    loader = DataLoader(data, batch_size=32, num_workers=2, generator=torch.Generator().manual_seed(0))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for _ in range(steps):
        for x, y in loader:
            loss = (model(x) - y).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 1)
    model.share_memory()
    trainer = mp.Process(target=fit, args=(model, 10))
    trainer.start()
    trainer.join()
    print(model.weight)
