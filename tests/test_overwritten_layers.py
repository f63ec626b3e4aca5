"""A layer whose drawn parameters the code overwrites right after building it draws
values that never reach a result (analysis/overwritten.py): what `check` reports."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

HEAD = "import torch\nimport torch.nn as nn\n\n\ndef build(src):\n"
# a training program: an evaluation one that loads weights has its inits excused anyway
TAIL = (
    "    return layer\n\n\nif __name__ == '__main__':\n    model = build(nn.BatchNorm2d(4))\n"
    "    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n    for x in torch.load('batches.pt'):\n"
    "        opt.zero_grad()\n        model(x).sum().backward()\n        opt.step()\n"
)


def _rpl101_lines(body: str) -> list[int]:
    return [d.span.start_line for d in check_source(HEAD + body + TAIL, "fold.py") if d.code == "RPL101"]


@pytest.mark.parametrize("body", [
    "    layer = nn.Conv2d(4, 4, 3).requires_grad_(False)\n"
    "    layer.weight.copy_(src.weight.view(4, 1, 1, 1).expand(4, 4, 3, 3))\n"
    "    layer.bias.copy_(src.bias)\n",
    "    layer = nn.Linear(4, 4, bias=False)\n    with torch.no_grad():\n        layer.weight.data.copy_(torch.eye(4))\n",
    "    layer = nn.Linear(4, 4)\n    layer.load_state_dict({'weight': torch.eye(4), 'bias': torch.zeros(4)})\n",
    "    layer = nn.Embedding(10, 4)\n    layer.weight = nn.Parameter(torch.zeros(10, 4))\n",
], ids=["weight-and-bias-copied", "no-bias-under-no-grad", "state-dict", "embedding-table"])
def test_overwritten_parameters_draw_nothing_that_counts(body: str) -> None:
    assert _rpl101_lines(body) == []


@pytest.mark.parametrize("body", [
    "    layer = nn.Conv2d(4, 4, 3)\n    layer.weight.data = src.weight.data.clone()\n",
    "    layer = nn.Linear(4, 4)\n    if src.affine:\n        layer.load_state_dict(src.state_dict())\n",
    "    layer = nn.Linear(4, 4)\n    layer.load_state_dict(src.state_dict(), strict=False)\n",
    "    layer = nn.Linear(4, 4)\n    other = nn.Linear(4, 4)\n    other.weight.copy_(src.weight)\n"
    "    other.bias.copy_(src.bias)\n",
], ids=["bias-left-as-drawn", "loaded-on-a-branch", "partial-load", "another-layer-overwritten"])
def test_parameters_left_as_drawn_are_reported(body: str) -> None:
    assert _rpl101_lines(body) == [6]
