"""RPL301 names first an op that the training step runs with every default: one that
runs only where a caller passes a parameter other than its default (`if lens is not
None:`) comes after it, as one under `no_grad` does."""
from __future__ import annotations

from reprolint.api import check_source

SOURCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x, index, lens=None):
        h = self.proj(x)
        if lens is not None:
            h = h.scatter_add(0, lens, h)
        return h.index_add(0, index, h)


model = Model().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.ones(4, 8).cuda()
index = torch.tensor([0, 0, 1, 1]).cuda()
model(x, index).sum().backward()
opt.step()
'''


def test_the_op_every_default_run_reaches_is_named_first() -> None:
    [finding] = [d for d in check_source(SOURCE, "train.py") if d.code == "RPL301"]
    assert "`h.index_add(...)`" in finding.message and "and 1 more op" in finding.message
    assert [r.span.start_line for r in finding.related[:2]] == [14, 13]
