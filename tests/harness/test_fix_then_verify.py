"""Issue 27: a fresh unseeded script becomes REPRODUCIBLE after `reprolint fix --write`
alone (no `--unsafe-fixes`): seeding a never-seeded program is a safe fix."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from reprolint.cli import main as lint_main

PY = sys.executable

pytestmark = pytest.mark.slow  # trains twice, twice
pytest.importorskip("torch")
pytest.importorskip("numpy")

UNSEEDED = """\
import random

import numpy as np
import torch

x = torch.randn(32, 4)
y = torch.randint(0, 2, (32,))
x += torch.from_numpy(np.random.rand(32, 4)).float()
order = random.sample(range(32), 32)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Dropout(0.2), torch.nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x[order], y[order]), batch_size=8, shuffle=True)
for xb, yb in loader:
    opt.zero_grad()
    torch.nn.functional.cross_entropy(model(xb), yb).backward()
    opt.step()
"""


def test_unseeded_script_is_reproducible_after_fix_write_alone(verify, tmp_path: Path, capsys) -> None:
    script = tmp_path / "train.py"
    script.write_text(UNSEEDED)
    before = verify("--", PY, str(script))
    assert before.status == 1 and "NOT REPRODUCIBLE" in before.out
    assert lint_main(["fix", "--write", str(script)]) == 0
    capsys.readouterr()
    assert "reprolint.runtime.install(seed=0)" in script.read_text()
    after = verify("--", PY, str(script))
    assert after.status == 0, after
    assert after.out.startswith("REPRODUCIBLE")
