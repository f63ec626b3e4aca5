"""Trains on the three datasets; every loader shuffles with torch's seeded generator."""
import torch
from torch.utils.data import DataLoader, RandomSampler

from data import Folder, Labelled, Split, Unread

torch.manual_seed(0)
images = DataLoader(Folder("data/images"), batch_size=8, shuffle=True)
labelled = Labelled("data/classes")
classes = DataLoader(labelled, batch_size=8, sampler=RandomSampler(labelled))
split = DataLoader(Split("data/all", train=True), batch_size=8, shuffle=True)
unread = DataLoader(Unread("data/all"), batch_size=8)
model = torch.nn.Linear(4, 4)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for loader in (images, classes, split, unread):
    for batch in loader:
        x = batch[0] if isinstance(batch, (list, tuple)) else batch
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
