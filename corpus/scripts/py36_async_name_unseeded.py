# A PyTorch 0.3-era script from before Python 3.7: `async` is a keyword argument here
# (`.cuda(async=True)`), so the file is checked as the Python 3.6 it was written for.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

dataset = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))  # expect: RPL101
loader = DataLoader(dataset, batch_size=16, shuffle=True)  # expect: RPL101
model = nn.Linear(8, 2).cuda()  # expect: RPL101
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    for inputs, targets in loader:
        inputs = inputs.cuda(async=True)
        targets = targets.cuda(async=True)
        loss = nn.functional.cross_entropy(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
torch.save(model.state_dict(), "model.pt")
