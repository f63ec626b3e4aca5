"""torch >= 2.6 device selection with the accelerator API: CUDA on a CUDA machine."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator()  # expect: RPL302  (no RPL301: no kernel that deterministic mode replaces)
model = nn.Sequential(nn.Conv1d(4, 4, 3), nn.Flatten(), nn.LazyLinear(1)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    x = torch.ones(2, 4, 10, device=device)
    loss = model(x).square().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
