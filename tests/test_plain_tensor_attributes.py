"""A tensor attribute that every assignment of its class makes with a factory (or moves to
a device), and whose elements only ``__init__`` writes, takes no gradient: an op that
reads it has no backward pass, as on a registered buffer (CMC's alias sampler)."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths

TABLES = (
    "import torch\nimport torch.nn as nn\n\n\n"
    "class Tables:\n"
    "    def __init__(self, k):\n"
    "        self.prob = {made}\n"
    "        self.alias = torch.LongTensor([0] * k)\n"
    "        for i in range(k):\n"
    "            self.prob[i] = 1.0\n\n"
    "    def cuda(self):\n"
    "        self.prob = self.prob.cuda()\n"
    "        self.alias = self.alias.cuda()\n\n"
    "{extra}"
    "    def draw(self, n):\n"
    "        kk = torch.zeros(n, dtype=torch.long, device=self.prob.device).random_(0, 10)\n"
    "        prob = self.prob.index_select(0, kk)\n"
    "        alias = self.alias.index_select(0, kk)\n"
    "        return kk + alias * torch.bernoulli(prob).long()\n"
)
TRAIN = (
    "import torch\nimport torch.nn as nn\n\nfrom tables import Tables\n\n\n"
    "class Head(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(8, 10)\n"
    "        self.tables = Tables(10)\n"
    "        self.tables.cuda()\n\n"
    "    def forward(self, x):\n"
    "        idx = self.tables.draw(x.size(0))\n"
    "        return self.fc(x).gather(1, idx.view(-1, 1)).mean(){use}\n\n\n"
    "torch.manual_seed(0)\n"
    "head = Head().cuda()\n"
    "opt = torch.optim.SGD(head.parameters(), lr=0.1)\n"
    "for _ in range(10):\n"
    "    loss = head(torch.randn(4, 8).cuda())\n"
    "    opt.zero_grad()\n"
    "    loss.backward()\n"
    "    opt.step()\n"
)


def _rpl301(root: Path) -> list[str]:
    return [d.message for d in check_paths([str(root)], jobs=1).diagnostics if d.code == "RPL301"]


def _write(root: Path, made: str = "torch.zeros(k)", extra: str = "", use: str = "") -> Path:
    (root / "tables.py").write_text(TABLES.format(made=made, extra=extra))
    (root / "train.py").write_text(TRAIN.format(use=use))
    return root


def test_factory_tables_read_by_index_select_have_no_backward(tmp_path: Path) -> None:
    assert _rpl301(_write(tmp_path)) == []


@pytest.mark.parametrize(("made", "extra", "use"), [
    ("nn.Parameter(torch.zeros(k))", "", ""),  # a parameter: trained
    ("torch.zeros(k)", "    def learn(self, i, v):\n        self.prob[i] = v\n\n", ""),  # written later with any value
    ("torch.zeros(k, requires_grad=True)", "", ""),
])
def test_a_table_that_may_take_a_gradient_is_reported(tmp_path: Path, made: str, extra: str, use: str) -> None:
    found = _rpl301(_write(tmp_path, made, extra, use))
    assert len(found) == 1 and "self.prob.index_select(...)" in found[0]
