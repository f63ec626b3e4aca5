"""Model builders registered by name. The training script builds one by the key its
option holds, a call the analysis does not resolve: a registered builder may run, so its
drawn weights count. `perturbed_copy` is only wrapped (`@torch.no_grad()`), registered
nowhere and called by nobody: its draw never runs."""
import copy

import torch
import torch.nn as nn

from registry import register


@register("mlp")
def mlp(width=64):
    return nn.Sequential(nn.Linear(32, width), nn.ReLU(), nn.Linear(width, 10))  # expect: RPL101


@torch.no_grad()
def perturbed_copy(model, scale=0.01):
    twin = copy.deepcopy(model)
    for p in twin.parameters():
        p.add_(torch.randn_like(p) * scale)
    return twin
