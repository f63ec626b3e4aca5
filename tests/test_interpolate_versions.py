"""Bilinear and trilinear resizing raise under deterministic mode up to torch 2.12 (as
far as checked); torch 2.13 computes them by a decomposition with a deterministic
backward, so there the flag fixes them (RPL201/RPL301) instead of rejecting them (RPL202).
Bicubic raises in every version. tests/libraries measures the 2.13 dispatch."""
from __future__ import annotations

import pytest

from reprolint.api import check_source
from reprolint.config import Settings

TRAIN = (
    "import torch\nimport torch.nn.functional as F\n\n"
    "torch.manual_seed(0)\n"
    "w = torch.randn(1, 3, 8, 8, device='cuda', requires_grad=True)\n"
    "opt = torch.optim.SGD([w], lr=0.1)\n"
    "for _ in range(10):\n"
    "    y = F.interpolate(w, scale_factor=2, mode='{mode}')\n"
    "    loss = y.square().mean()\n"
    "    opt.zero_grad()\n"
    "    loss.backward()\n"
    "    opt.step()\n"
)


def _codes(mode: str, torch_version: str) -> set[str]:
    found = check_source(TRAIN.format(mode=mode), path="train.py", settings=Settings(torch_version=torch_version))
    return {d.code for d in found}


@pytest.mark.parametrize(("mode", "version", "raises"), [
    ("bilinear", "2.12", True),
    ("bilinear", "2.13", False),
    ("bicubic", "2.13", True),
    ("bicubic", "2.0", True),
])
def test_rpl202_follows_the_version_s_kernel(mode: str, version: str, raises: bool) -> None:
    codes = _codes(mode, version)
    assert ("RPL202" in codes) is raises
    if not raises:
        assert "RPL301" in codes  # still nondeterministic until deterministic mode is on
