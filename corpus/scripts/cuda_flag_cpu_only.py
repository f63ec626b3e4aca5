"""Look-alike of cuda_flag_store_true.py: `--no-cuda` is `store_true` with `default=True`
(the flag can only keep it true), so no run of this program reaches the GPU; and the
autotuning line is behind an option that is off by default (settings keep default-run
semantics). Nothing to report."""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--no-cuda", action="store_true", default=True)
parser.add_argument("--benchmark", action="store_true")
args = parser.parse_args()

torch.manual_seed(0)
if args.benchmark:
    torch.backends.cudnn.benchmark = True
model = nn.Conv2d(3, 8, 3)
if not args.no_cuda:
    model.cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
model(torch.zeros(1, 3, 8, 8)).sum().backward()
optimizer.step()
