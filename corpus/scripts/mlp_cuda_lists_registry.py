"""Look-alike of imagenet_arch_by_name.py for cuDNN: the script only lists torchvision's
model registry in its help text and trains a plain MLP (no convolution, no cuDNN) on
the GPU; it is seeded."""
import argparse

import torch
import torch.nn as nn
import torchvision.models as models

parser = argparse.ArgumentParser(
    epilog="backbones for the next version: " + ", ".join(sorted(n for n in models.__dict__.keys() if n.islower()))
)
parser.add_argument("--steps", type=int, default=1000)

if __name__ == "__main__":
    args = parser.parse_args()
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 10)).cuda()  # (no RPL301: no kernel that deterministic mode replaces)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for _ in range(args.steps):
        x = torch.zeros(32, 64, device="cuda")
        loss = net(x).logsumexp(1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
