"""Look-alike of flags_benchmark_param_default.py: the loop's `benchmark` parameter
defaults to False, so autotuning stays off unless a caller asks for it; determinism is
on. The module constant below is False too."""
import os

import torch
import torch.nn as nn

USE_TF32 = False


def training_loop(total_steps=1000, seed=0, benchmark=False):
    os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = benchmark
    torch.backends.cudnn.allow_tf32 = USE_TF32
    device = torch.device("cuda")
    net = nn.Sequential(nn.Conv2d(3, 32, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(10)).to(device)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(total_steps):
        images = torch.zeros(8, 3, 32, 32, device=device)
        loss = net(images).logsumexp(dim=1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    training_loop(total_steps=10)
