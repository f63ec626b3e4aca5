"""Look-alike of declared_old_torch: this project declares `torch>=1.10` (pyproject.toml),
and torch >= 1.9 reseeds NumPy's global RNG in each DataLoader worker from the loader's
base seed: nothing to report."""
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Jitter(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.tensor([i + np.random.uniform(-0.1, 0.1)])


def main():
    torch.manual_seed(0)
    np.random.seed(0)
    loader = DataLoader(Jitter(64), batch_size=8, num_workers=4)
    model = torch.nn.Linear(1, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for (x,) in loader:
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
