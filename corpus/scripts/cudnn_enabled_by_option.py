"""A DQN-style trainer on CUDA whose `--enable-cudnn` option is on by default
(`BooleanOptionalAction`, default True): cuDNN runs, autotuned and not deterministic
(look-alike: cudnn_disabled_by_option.py)."""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--enable-cudnn", action=argparse.BooleanOptionalAction, default=True)
parser.add_argument("--seed", type=int, default=123)
args = parser.parse_args()
torch.manual_seed(args.seed)
torch.use_deterministic_algorithms(True, warn_only=True)  # expect: RPL303
device = torch.device("cuda")
torch.backends.cudnn.enabled = args.enable_cudnn
torch.backends.cudnn.benchmark = True  # expect: RPL203
net = nn.Sequential(nn.Conv2d(4, 32, 8, stride=4), nn.ReLU(), nn.Flatten(), nn.LazyLinear(6)).to(device)
opt = torch.optim.Adam(net.parameters(), lr=1e-4)
for step in range(1000):
    q = net(torch.rand(32, 4, 84, 84, device=device))
    loss = q.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
