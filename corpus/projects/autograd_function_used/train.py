"""Trains the quantised autoencoder on CUDA: its forward calls the quantiser's autograd
Function (functions.py), whose `index_add_` backward runs on the training path
(RPL301 at the program, listing it). The `index_select` of its forward records no
gradient: autograd does not run inside a custom Function, so its backward is not listed."""
import torch
import torch.nn.functional as F

from modules import QuantisedAutoencoder

torch.manual_seed(0)
model = QuantisedAutoencoder().cuda()  # expect: RPL301
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(100):
    x = torch.randn(64, 32, device="cuda")
    loss = F.mse_loss(model(x), x)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
