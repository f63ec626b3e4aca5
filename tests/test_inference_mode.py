"""`if self.training:` in a module's method is False all through a program that trains
nothing and puts its model in inference mode (`model.eval()`): scheduled sampling, drop
path or noise drawn only while training draws nothing in an evaluation script. Modules
start in training mode, so without `eval()` (or in a program that trains) the branch may
run."""
from __future__ import annotations

import pytest

from reprolint.api import check_sources

MODEL = '''import torch
from torch import nn


class Captioner(nn.Module):
    def __init__(self, ss_prob=0.25):
        super().__init__()
        self.ss_prob = ss_prob
        self.out = nn.Linear(8, 4)

    def forward(self, x):
        if self.training and self.ss_prob > 0.0:
            x = x + torch.rand(x.shape)
        return self.out(x)
'''

EVALUATE = '''import sys

import torch

from pkg.model import Captioner

model = Captioner()
model.load_state_dict(torch.load(sys.argv[1]))
MODE
with torch.no_grad():
    print(model(torch.load(sys.argv[2])).argmax(-1))
'''

TRAIN_STEP = "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nmodel(torch.ones(2, 8)).sum().backward()\nopt.step()\nmodel.eval()"


def draws(mode: str, model: str = MODEL) -> list[tuple[str, int]]:
    sources = {"pkg/__init__.py": "", "pkg/model.py": model, "evaluate.py": EVALUATE.replace("MODE", mode)}
    return sorted((d.path, d.span.start_line) for d in check_sources(sources) if d.code == "RPL101")


def test_an_inference_program_skips_what_only_training_mode_runs() -> None:
    assert draws("model.eval()") == []
    assert draws("model.train(False)") == []


@pytest.mark.parametrize("mode", ["pass", "model.train()", TRAIN_STEP])
def test_training_mode_or_a_training_step_keeps_the_branch(mode: str) -> None:
    assert ("pkg/model.py", 13) in draws(mode)


def test_a_class_that_keeps_its_own_training_attribute_is_read_as_written() -> None:
    own = MODEL.replace("self.ss_prob = ss_prob\n", "self.ss_prob = ss_prob\n        self.training = True\n")
    assert ("pkg/model.py", 14) in draws("model.eval()", own)
