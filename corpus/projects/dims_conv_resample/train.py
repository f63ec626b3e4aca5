"""Trains a video (3-D) encoder that downsamples with a strided convolution.

`Encoder(dims=3)` leaves `conv_resample` at its default, True, and passes it on as
`Downsample`'s `use_conv`: the `if use_conv:` branch builds `conv_nd(3, ...)`, never
`avg_pool_nd(3, ...)`, so the 3-D pooling without a deterministic CUDA backward is not this
program's (look-alike of dims_passed_on_3d, which pools: no RPL202 here). The caller's
condition is judged with what its own call passed.
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
