"""Written for torch 0.4.1, whose DataLoader workers start with identical copies of
NumPy's global RNG. The dataset reseeds NumPy itself on each worker's first item
(`np.random.seed(index)`), so the workers' streams differ and follow the data order:
nothing for RPL403 to report (torch is seeded; NumPy too, before the workers start)."""
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class SegmentationCrops(Dataset):
    def __init__(self, n):
        self.n = n
        self.records = list(range(n))
        self.shuffled = False

    def __len__(self):
        return self.n

    def __getitem__(self, index):
        if not self.shuffled:
            np.random.seed(index)
            np.random.shuffle(self.records)
            self.shuffled = True
        offset = np.random.randint(0, 8)
        return torch.full((4,), float(self.records[index] + offset))


if __name__ == "__main__":
    torch.manual_seed(304)
    np.random.seed(304)
    loader = DataLoader(SegmentationCrops(64), batch_size=8, num_workers=4, shuffle=False)
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for batch in loader:
        loss = model(batch).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
