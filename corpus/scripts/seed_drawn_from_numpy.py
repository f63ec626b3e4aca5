"""The seed is itself drawn from NumPy's global generator before anything seeds it:
every run picks another seed (logged, but a rerun does not reuse it)."""
import numpy as np
import torch

seed = int(np.random.randint(0, 2**31 - 1))  # expect: RPL103
print(f"seed: {seed}")
np.random.seed(seed)
torch.manual_seed(seed)

model = torch.nn.Linear(16, 4)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(10):
    batch = torch.from_numpy(np.random.rand(8, 16).astype("float32"))
    loss = model(batch).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
