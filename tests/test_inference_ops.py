"""A training program's work under `torch.no_grad()`/`inference_mode()` (samples it
generates, a validation pass between epochs) trains no weight: a kernel deterministic
mode would replace is no evidence for RPL301 there, nor an RPL201 site. An evaluation
program's result is that work: its sites stay reported."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

TRAIN = '''import torch
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda")
model = torch.nn.Linear(8, 4).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(64, 8, device=device), torch.randint(0, 4, (64,), device=device)


{decorator}def class_sums(out):
    return torch.zeros(4, 4, device=device).index_add_(0, y, out)


for step in range(10):
    loss = F.cross_entropy(model(x), y){in_loss}
    opt.zero_grad()
    loss.backward()
    opt.step()
    {probe}
'''


def _codes(source: str) -> list[str]:
    return sorted(d.code for d in check_source(source, "train.py") if d.code in ("RPL201", "RPL301"))


@pytest.mark.parametrize("decorator", ["@torch.no_grad()\n", "@torch.inference_mode()\n"])
def test_ops_of_a_no_grad_probe_are_no_evidence(decorator: str) -> None:
    source = TRAIN.format(decorator=decorator, in_loss="", probe="print(class_sums(model(x)))")
    assert _codes(source) == []


def test_a_probe_in_a_no_grad_block_is_no_evidence() -> None:
    source = TRAIN.format(decorator="", in_loss="", probe="with torch.no_grad():\n        print(class_sums(model(x)))")
    assert _codes(source) == []


def test_the_same_op_in_the_loss_is_evidence() -> None:
    source = TRAIN.format(decorator="", in_loss=" + class_sums(model(x)).mean()", probe="")
    [finding] = [d for d in check_source(source, "train.py") if d.code == "RPL301"]
    assert "index_add_" in finding.message and finding.span.start_line == 5


def test_an_evaluation_programs_sites_stay_reported() -> None:
    source = (
        "import sys\nimport torch\n\nnet = torch.load(sys.argv[1]).cuda().eval()\n"
        "labels = torch.load(sys.argv[2]).cuda()\n"
        "with torch.no_grad():\n"
        "    rows = net(torch.load(sys.argv[3]).cuda())\n"
        "    sums = torch.zeros(10, rows.shape[1]).cuda().index_add_(0, labels, rows)\n"
        "torch.save(sums, 'means.pt')\n"
    )
    assert [(d.code, d.span.start_line) for d in check_source(source, "eval.py") if d.code == "RPL201"] == [("RPL201", 8)]
