"""A gather (or scatter) whose index lines come from a sort or a permutation along `dim`
(MAE's random masking) meets no two writes in its backward: no RPL301/RPL201 evidence.
The claim is checked on the real torch: every input element gets at most one gradient
contribution."""
from __future__ import annotations

import pytest
import torch

from reprolint.api import check_source

PROGRAM = '''import torch
import torch.nn as nn


class Masked(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(32, 32)

    def forward(self, x):
        x = self.proj(x)
        N, L, D = x.shape
        ids_shuffle = torch.argsort(torch.rand(N, L, device=x.device), dim=1)
        ids_keep = ids_shuffle[:, : L // 4]
        return torch.gather(x, dim=1, index=INDEX).sum()


torch.manual_seed(0)
model = Masked().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    model(torch.randn(8, 16, 32, device="cuda")).backward()
    opt.step()
'''


@pytest.mark.parametrize("index", [
    "ids_keep.unsqueeze(-1).repeat(1, 1, D)",
    "ids_keep.unsqueeze(-1).expand(-1, -1, D)",
    "torch.argsort(ids_shuffle, dim=1).unsqueeze(-1).repeat(1, 1, D)",
    "ids_shuffle.sort(dim=1)[1][:, :4].unsqueeze(2).expand(N, 4, D)",
])
def test_a_permutation_index_gives_no_finding(index: str) -> None:
    found = check_source(PROGRAM.replace("INDEX", index), "mae.py")
    assert [d.code for d in found if d.code in ("RPL201", "RPL301")] == []


@pytest.mark.parametrize("index", [
    "ids_keep.unsqueeze(-1).repeat(1, 2, D)",  # the lines repeat along dim 1
    "torch.randint(0, L, (N, L // 4, D), device=x.device)",
    "torch.argsort(ids_shuffle, dim=0).unsqueeze(-1).repeat(1, 1, D)",  # sorted along another axis
])
def test_an_index_that_may_repeat_keeps_the_finding(index: str) -> None:
    found = check_source(PROGRAM.replace("INDEX", index), "mae.py")
    assert [d.code for d in found if d.code in ("RPL201", "RPL301")] == ["RPL301"]


def test_the_backward_of_such_a_gather_adds_once_per_element() -> None:
    torch.manual_seed(0)
    x = torch.randn(4, 16, 8, requires_grad=True)
    ids_keep = torch.argsort(torch.rand(4, 16), dim=1)[:, :5]
    torch.gather(x, dim=1, index=ids_keep.unsqueeze(-1).repeat(1, 1, 8)).sum().backward()
    assert set(x.grad.unique().tolist()) <= {0.0, 1.0}  # no element got two contributions
    assert int(x.grad.sum()) == 4 * 5 * 8
