"""Trains on the datasets; the loaders shuffle with torch's generator, which the program
never seeds (one RPL101 cause: the model's weights first, the shuffles beside them)."""
import torch
from torch.utils.data import DataLoader, RandomSampler

from data import Folder, Labelled, Split, Unread

images = DataLoader(Folder("data/images"), batch_size=8, shuffle=True)  # expect: RPL101
labelled = Labelled("data/classes")
classes = DataLoader(labelled, batch_size=8, sampler=RandomSampler(labelled))  # expect: RPL101
split = DataLoader(Split("data/all", train=True), batch_size=8, shuffle=True)  # expect: RPL101
unread = DataLoader(Unread("data/all"), batch_size=8)
model = torch.nn.Linear(4, 4)  # expect: RPL101
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for loader in (images, classes, split, unread):
    for batch in loader:
        x = batch[0] if isinstance(batch, (list, tuple)) else batch
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
