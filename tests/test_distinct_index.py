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


TOP_K = '''import torch

torch.manual_seed(0)
head = torch.nn.Linear(16, 32).cuda()
opt = torch.optim.SGD(head.parameters(), lr=0.1)
for step in range(3):
    logits = head(torch.randn(8, 16, device="cuda"))
    BIND
    loss = torch.full_like(logits, -1e9).scatter_(AXIS, indices, values).logsumexp(-1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
'''


@pytest.mark.parametrize(("bind", "axis", "reported"), [
    ("values, indices = torch.topk(logits, 4)", "-1", False),
    ("values, indices = logits.topk(4, dim=0)", "0", False),
    ("values, indices = torch.sort(logits, 1)", "1", False),
    ("values, indices = logits.sort()", "-1", False),
    ("values, indices = logits.topk(4, dim=0)", "-1", True),  # sorted along another axis
    ("values, indices = logits, torch.randint(0, 32, (8, 32), device='cuda')", "-1", True),
    ("indices, values = torch.topk(logits, 4)", "-1", True),  # the values, not the indices
])
def test_the_indices_a_top_k_or_sort_returns_write_each_element_once(bind: str, axis: str, reported: bool) -> None:
    source = TOP_K.replace("BIND", bind).replace("AXIS", axis)
    found = [d.code for d in check_source(source, "sample.py") if d.code in ("RPL201", "RPL301")]
    assert found == (["RPL301"] if reported else [])


def test_top_k_indices_repeat_no_value_along_their_axis() -> None:
    logits = torch.randn(64, 50)
    for dim in (0, 1, -1):
        _, indices = torch.topk(logits, 10, dim=dim)
        ones = torch.zeros_like(logits).scatter_add_(dim, indices, torch.ones_like(indices, dtype=logits.dtype))
        assert ones.max() == 1  # each element written at most once: no two adds to order
    assert logits.sort(0).indices.sort(0).values.equal(torch.arange(64).unsqueeze(1).expand(64, 50))


def test_the_backward_of_such_a_gather_adds_once_per_element() -> None:
    torch.manual_seed(0)
    x = torch.randn(4, 16, 8, requires_grad=True)
    ids_keep = torch.argsort(torch.rand(4, 16), dim=1)[:, :5]
    torch.gather(x, dim=1, index=ids_keep.unsqueeze(-1).repeat(1, 1, 8)).sum().backward()
    assert set(x.grad.unique().tolist()) <= {0.0, 1.0}  # no element got two contributions
    assert int(x.grad.sum()) == 4 * 5 * 8
