"""torch is seeded before the loader starts its workers, so the caption each worker
picks with `random` follows torch's seed: nothing to report."""
import torch
from torch import nn

from captions.data import make_loader

torch.manual_seed(0)
captions = [[[1, 2, 3], [4, 5, 6]] for _ in range(64)]
model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for batch in make_loader(captions):
    loss = model(batch.float()).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
