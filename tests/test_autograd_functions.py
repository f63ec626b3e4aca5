"""A custom autograd Function (`class Quantize(torch.autograd.Function)`) runs where
code that runs calls its `apply` (directly or through an alias, `quantize =
Quantize.apply`), not wherever its module is imported; autograd records nothing inside
its forward and backward, so only their own kernels count, not the backward of the ops
they call."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths

FUNCTIONS = '''import torch


class Quantize(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inputs, codebook):
        indices = torch.cdist(inputs, codebook).argmin(dim=1)
        ctx.save_for_backward(indices, codebook)
        return codebook.index_select(0, indices)

    @staticmethod
    def backward(ctx, grad_output):
        indices, codebook = ctx.saved_tensors
        grad = torch.zeros_like(codebook)
        grad.index_add_(0, indices, grad_output)
        return grad_output, grad


ALIAS
'''

TRAIN = '''import torch
import torch.nn as nn

from functions import CALLED

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(8, 4)
        self.codebook = nn.Parameter(torch.randn(16, 4))

    def forward(self, x):
        return FORWARD


model = Net().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss = model(torch.randn(2, 8, device="cuda")).sum()
loss.backward()
optimizer.step()
'''


def _check(tmp_path: Path, alias: str, called: str, forward: str) -> list:
    (tmp_path / "functions.py").write_text(FUNCTIONS.replace("ALIAS", alias))
    (tmp_path / "train.py").write_text(
        TRAIN.replace("CALLED", called).replace("FORWARD", forward))
    return [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code in ("RPL201", "RPL301")]


@pytest.mark.parametrize("alias, called, forward", [
    ("quantize = Quantize.apply", "quantize", "quantize(self.enc(x), self.codebook)"),
    ("", "Quantize", "Quantize.apply(self.enc(x), self.codebook)"),
])
def test_a_function_called_through_apply_runs_its_backward_kernels(
    tmp_path: Path, alias: str, called: str, forward: str,
) -> None:
    [finding] = _check(tmp_path, alias, called, forward)
    assert finding.code == "RPL301" and Path(finding.path).name == "train.py"
    assert "`grad.index_add_(...)`" in finding.message
    # autograd records nothing in the Function's forward: index_select's backward never runs
    assert "index_select" not in finding.message
    assert [(Path(r.path).name, r.span.start_line) for r in finding.related] == [("functions.py", 15)]


@pytest.mark.parametrize("alias", ["quantize = Quantize.apply", ""])
def test_a_function_nothing_calls_runs_nothing(tmp_path: Path, alias: str) -> None:
    assert _check(tmp_path, alias, "Quantize", "self.enc(x)") == []
