"""GAN-style training loop configured by keyword arguments: the loop turns cuDNN
autotuning on from its `cudnn_benchmark` parameter, whose default is True, and the
launcher passes only what the command line changed (`--nobench` is off by default)."""
import argparse

import numpy as np
import torch
import torch.nn as nn


def training_loop(rank=0, total_steps=1000, random_seed=0, cudnn_benchmark=True, allow_tf32=False):
    device = torch.device("cuda", rank)  # expect: RPL302  (no RPL301: no kernel that deterministic mode replaces)
    np.random.seed(random_seed)
    torch.manual_seed(random_seed)
    torch.backends.cudnn.benchmark = cudnn_benchmark  # expect: RPL203
    torch.backends.cuda.matmul.allow_tf32 = allow_tf32
    net = nn.Sequential(nn.Conv2d(3, 32, 3), nn.LeakyReLU(0.2), nn.Flatten(), nn.LazyLinear(1)).to(device)
    opt = torch.optim.Adam(net.parameters(), lr=2e-3, betas=(0.0, 0.99))
    for _ in range(total_steps):
        images = torch.from_numpy(np.random.rand(16, 3, 32, 32).astype("float32")).to(device)
        loss = nn.functional.softplus(-net(images)).mean()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--nobench", action="store_true", help="disable cuDNN benchmarking")
    opts = parser.parse_args()
    kwargs = dict(total_steps=opts.steps)
    if opts.nobench:
        kwargs["cudnn_benchmark"] = False
    training_loop(rank=0, **kwargs)


if __name__ == "__main__":
    main()
