"""Trains the plain autoencoder on CUDA. The quantiser's autograd Function (functions.py)
is imported with the models' module but nothing this program builds calls it: its
`index_add_` backward never runs here (look-alike of autograd_function_used)."""
import torch
import torch.nn.functional as F

from modules import Autoencoder

torch.manual_seed(0)
model = Autoencoder().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(100):
    x = torch.randn(64, 32, device="cuda")
    loss = F.mse_loss(model(x), x)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
