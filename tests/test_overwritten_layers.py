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


NET = (
    "import torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n"
    "        super().__init__()\n        self.fc = nn.Linear(8, 2)\n\n    def forward(self, x):\n        return self.fc(x)\n"
)
OPTIMISE_INPUT = (
    "image = torch.zeros(1, 8, requires_grad=True)\nopt = torch.optim.SGD([image], lr=0.1)\n"
    "for _ in range(10):\n    opt.zero_grad()\n    (-net(image)[0, 1]).backward()\n    opt.step()\n"
)


@pytest.mark.parametrize(("build", "reported"), [
    # every parameter of the project model replaced at once: its drawn weights never count
    ("net = Net().to('cpu')\nnet.load_state_dict(torch.load('ckpt.pt'))\n", False),
    # not surely loaded, or only in part: the drawn weights may stay
    ("net = Net()\nif os.path.exists('ckpt.pt'):\n    net.load_state_dict(torch.load('ckpt.pt'))\n", True),
    ("net = Net()\nnet.load_state_dict(torch.load('ckpt.pt'), strict=False)\n", True),
    ("net = Net()\nnet.fc.load_state_dict(torch.load('fc.pt'))\n", True),
    # a second model of the same class keeps what it draws
    ("net = Net()\nnet.load_state_dict(torch.load('ckpt.pt'))\nfresh = Net()\nprint(fresh(torch.ones(1, 8)))\n", True),
])
def test_a_project_model_loaded_right_after_it_is_built(build: str, reported: bool) -> None:
    from reprolint.api import check_sources

    source = "import os\nimport torch\nfrom net import Net\n\n" + build + OPTIMISE_INPUT
    found = [d.path for d in check_sources({"net.py": NET, "visualize.py": source}) if d.code == "RPL101"]
    assert found == (["net.py"] if reported else [])
