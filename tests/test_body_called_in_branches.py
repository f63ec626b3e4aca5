"""A body runs once, at its first call, but where later calls run it under other
conditions its steps hold under any of them: a class a factory builds in each branch of
`if depth == 10: ... elif depth == 18: ...` is built on a default run that takes the
second branch (3D-ResNets' `generate_model`), so its layers' draws and ops count."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

PROGRAM = '''import argparse

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(8, width)
        self.pool = nn.MaxPool3d(kernel_size=3, stride=2, padding=1)

    def forward(self, x):
        return self.fc(self.pool(x).flatten(1)[:, :8])


def generate_model(depth):
    if depth == 10:
        return Net(1)
    elif depth == 18:
        return Net(2)
    raise ValueError(depth)


parser = argparse.ArgumentParser()
parser.add_argument("--depth", type=int, default=DEPTH)
args = parser.parse_args()
model = generate_model(args.depth).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.ones(2, 1, 8, 8, 8, device="cuda")).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
'''


def found(depth: int) -> list[tuple[str, int]]:
    return [(d.code, d.span.start_line) for d in check_source(PROGRAM.replace("DEPTH", str(depth)), "train.py")
            if d.code in ("RPL101", "RPL301")]


@pytest.mark.parametrize("depth", [10, 18])
def test_the_class_is_built_by_whichever_branch_the_default_takes(depth: int) -> None:
    codes = found(depth)
    assert ("RPL101", 10) in codes  # the first layer's draw, unseeded
    assert [c for c, _ in codes].count("RPL301") == 1  # MaxPool3d's CUDA backward, trained


def test_no_branch_taken_builds_nothing() -> None:
    assert found(34) == []
