"""Trains a 2-D encoder whose pooling layer comes from a factory by dimensionality.

The dimensionality is passed on through two constructors (`Encoder(dims=2)` by default,
then `Downsample(..., dims=dims)`, then `avg_pool_nd(dims, ...)`): this program builds
`nn.AvgPool2d`, whose backward has a deterministic CUDA kernel, never the 3-D pooling of
the factory's other branch (look-alike of dims_passed_on_3d: no RPL202).
"""
import torch

from model import Encoder

torch.manual_seed(0)
torch.use_deterministic_algorithms(True)  # expect: RPL303
device = "cuda" if torch.cuda.is_available() else "cpu"
model = Encoder(channels=8).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    x = torch.randn(4, 8, 16, 16, device=device)
    loss = model(x).square().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
