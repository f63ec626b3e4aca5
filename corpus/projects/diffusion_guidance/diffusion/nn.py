"""Layer helpers that forward every argument, as diffusion code bases write them."""
import torch
import torch.nn as nn


def linear(*args, **kwargs):
    """A linear layer: its weights are drawn whatever the keyword arguments are."""
    return nn.Linear(*args, **kwargs)  # expect: RPL101


def conv_nd(dims, *args, **kwargs):
    if dims == 1:
        return nn.Conv1d(*args, **kwargs)  # dims == 1: no call of this project passes it
    return nn.Conv2d(*args, **kwargs)  # expect: RPL101


def noise_like(x, **kwargs):
    """The keyword arguments may carry `generator=`: not known to draw globally."""
    return torch.randn_like(x, **kwargs)
