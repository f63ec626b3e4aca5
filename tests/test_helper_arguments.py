"""A helper that gathers from whatever tensor it is given (`extract(a, t, shape)`, the
diffusion idiom) runs the gather's nondeterministic backward only when a gradient flows
into that tensor: when every call of the helper passes a registered buffer (also one
registered through a local `register_buffer = lambda ...`), a fresh or a detached
tensor, no backward kernel runs and there is no RPL301/RPL201 evidence. The claims are
checked on the real torch."""
from __future__ import annotations

import pytest
import torch

from reprolint.api import check_source

PROGRAM = '''import torch
import torch.nn as nn


def extract(a, t, x_shape):
    out = a.gather(-1, t)
    return out.reshape(t.shape[0], *((1,) * (len(x_shape) - 1)))


class Diffusion(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
        register_buffer = lambda name, val: self.register_buffer(name, val.float())
        register_buffer("alphas", torch.linspace(0.99, 0.5, 1000))
        self.register_buffer("sigmas", torch.linspace(0.01, 0.5, 1000))
        self.weight = nn.Parameter(torch.ones(1000))

    def forward(self, x):
        t = torch.randint(0, 1000, (x.shape[0],), device=x.device)
        noise = torch.randn_like(x)
        x_t = FIRST * x + SECOND * noise
        return (self.model(x_t) - noise).pow(2).mean()


torch.manual_seed(0)
model = Diffusion(nn.Linear(8, 8)).cuda()
opt = torch.optim.Adam(model.parameters())
for step in range(10):
    loss = model(torch.randn(4, 8, device="cuda"))
    opt.zero_grad()
    loss.backward()
    opt.step()
'''


def evidence(first: str, second: str) -> list[str]:
    source = PROGRAM.replace("FIRST", first).replace("SECOND", second)
    return [d.code for d in check_source(source, "train.py") if d.code in ("RPL201", "RPL301")]


@pytest.mark.parametrize(("first", "second"), [
    ("extract(self.alphas, t, x.shape)", "extract(self.sigmas, t, x.shape)"),
    ("extract(self.alphas, t, x.shape)", "extract(torch.ones(1000, device=x.device), t, x.shape)"),
    ("extract(self.alphas, t, x.shape)", "extract(self.weight.detach(), t, x.shape)"),
])
def test_a_helper_every_call_gives_a_tensor_without_grad_runs_no_backward(first: str, second: str) -> None:
    assert evidence(first, second) == []


@pytest.mark.parametrize(("first", "second"), [
    ("extract(self.alphas, t, x.shape)", "extract(self.weight, t, x.shape)"),  # a parameter
    ("extract(self.weight, t, x.shape)", "extract(self.sigmas, t, x.shape)"),
    ("extract(self.alphas, t, x.shape)", "extract(self.model.weight[0], t, x.shape)"),
])
def test_one_call_with_a_trained_tensor_keeps_the_evidence(first: str, second: str) -> None:
    assert evidence(first, second) == ["RPL301"]


def test_a_helper_that_rebinds_its_parameter_is_not_read_as_passed() -> None:
    source = PROGRAM.replace("    out = a.gather", "    a = a * torch.ones_like(a).requires_grad_()\n    out = a.gather")
    source = source.replace("FIRST", "extract(self.alphas, t, x.shape)").replace("SECOND", "1.0")
    assert [d.code for d in check_source(source, "train.py") if d.code == "RPL301"] == ["RPL301"]


def test_a_gather_from_a_buffer_records_no_backward() -> None:
    module = torch.nn.Module()
    module.register_buffer("alphas", torch.linspace(0.99, 0.5, 1000))
    out = module.alphas.gather(-1, torch.randint(0, 1000, (4,)))
    assert out.grad_fn is None and not out.requires_grad  # no GatherBackward node: nothing to run
    weight = torch.nn.Parameter(torch.ones(1000))
    assert weight.gather(-1, torch.tensor([1, 1])).grad_fn.name() == "GatherBackward0"
