"""Look-alike of device_torch_accelerator.py: the accelerator API is only asked whether one
exists (for a log line); the model trains on the CPU."""
import torch
import torch.nn as nn

torch.manual_seed(0)
print("accelerator available:", torch.accelerator.is_available())
device = torch.device("cpu")
model = nn.Sequential(nn.Conv1d(4, 4, 3), nn.Flatten(), nn.LazyLinear(1)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    x = torch.ones(2, 4, 10)
    loss = model(x).square().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
