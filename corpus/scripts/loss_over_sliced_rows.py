"""The look-alike: two slices of a (batch, classes) logits matrix keep two dimensions;
cross-entropy runs the plain NLL kernel."""
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
model = nn.Linear(64, 512).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
for x, labels in torch.load("batches.pt"):
    logits = model(x.cuda())
    loss = F.cross_entropy(logits[:, :256], labels.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
