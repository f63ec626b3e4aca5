"""Builds a network and initialises it with a callback, `net.apply(init_weights)`: the
callback's draws run unseeded. The helper module's `random_crop_box` is named by no
module of the program, so its NumPy draws never run (no RPL101 there); nor does `jitter`,
named only in the body of a class nothing builds. `make_schedule` is handed on as a
callback, so it may run, and so may the `warmup_steps` it names (its NumPy draw: RPL101)."""
import torch
import torch.nn as nn

from init import init_weights, make_schedule

net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))  # expect: RPL101
net.apply(init_weights)
print(net(torch.ones(2, 4)))
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda=make_schedule)
