"""A model file's `__main__` self-test (it builds the model, runs a random input through
it, and only asserts or prints shapes, sizes, dtypes and parameter counts, or a model
summary) is a demo: no value drawn there changes what it shows. Printing a value, a
length (of what a draw filtered), saving, plotting or training keeps it a program."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

MODEL = '''import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc(x)


def test():
    net = Net()
    y = net(torch.randn(2, 8))
    CHECK


if __name__ == "__main__":
    test()
'''


def draws(check: str) -> list[int]:
    return [d.span.start_line for d in check_source(MODEL.replace("CHECK", check), "resnet.py") if d.code == "RPL101"]


@pytest.mark.parametrize("check", [
    "print(y.size())",
    "print(y.shape, y.dtype)",
    "assert y.shape == (2, 2), f'bad shape {y.shape}'",
    "print(f'params: {sum(p.numel() for p in net.parameters())}')",
    "from torchsummary import summary\n    summary(net, (8,))",
])
def test_a_shape_only_self_test_is_a_demo(check: str) -> None:
    assert draws(check) == []


@pytest.mark.parametrize("check", [
    "print(y)",
    "print(len([v for v in y.flatten() if v > 0]))",
    "torch.save(y, 'out.pt')",
    "y.sum().backward()",
    "print(y.size())\n    helper(y)",  # a call the module does not define
])
def test_a_self_test_that_shows_values_is_a_program(check: str) -> None:
    assert draws(check) == [8]


def test_top_level_work_outside_the_guard_keeps_it_a_program() -> None:
    source = MODEL.replace("CHECK", "print(y.size())").replace("\n\ndef test():", "\nprint(torch.rand(2))\n\n\ndef test():")
    assert draws_of(source) != []


def draws_of(source: str) -> list[int]:
    return [d.span.start_line for d in check_source(source, "resnet.py") if d.code == "RPL101"]
