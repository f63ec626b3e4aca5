"""Trains a video (3-D) encoder whose pooling layer comes from a factory by dimensionality.

`Encoder(dims=3)` passes the dimensionality on through `Downsample(..., dims=dims)` to
`avg_pool_nd(dims, ...)`, which builds `nn.AvgPool3d`: its backward has no deterministic
CUDA kernel and raises under deterministic mode (RPL202 in nn_util.py). Look-alike:
dims_passed_on_2d builds the same encoder in 2-D.
"""
import torch

from model import Encoder

torch.manual_seed(0)
torch.use_deterministic_algorithms(True)  # expect: RPL303
device = "cuda" if torch.cuda.is_available() else "cpu"
model = Encoder(channels=8, dims=3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    x = torch.randn(2, 8, 4, 16, 16, device=device)
    loss = model(x).square().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
