"""The same image dataset read in order: no loader shuffles it, so the listing's order
is the order the model sees its samples in."""
import torch
from torch.utils.data import DataLoader

from data import Folder

torch.manual_seed(0)
loader = DataLoader(Folder("data/images"), batch_size=8)
model = torch.nn.Linear(4, 4)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for batch in loader:
    loss = model(batch).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
