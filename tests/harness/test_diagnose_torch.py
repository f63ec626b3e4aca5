"""`verify --diagnose` controls on small real torch programs (issue 27 items 3 and 4)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each diagnosis trains a dozen times
pytest.importorskip("torch")

PY = sys.executable

TORCH_INIT = """\
import torch

if __name__ == "__main__":
    model = torch.nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.ones(8, 4)
    for step in range(3):
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()
"""

# `random` is seeded, torch is not: with workers, each worker's `random` is reseeded
# from torch's (unseeded) base seed, so the augmentation differs; in the main process
# (num_workers=0) it draws from the seeded `random`.
WORKERS = """\
import random

import torch
from torch.utils.data import DataLoader, Dataset


class Jitter(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.full((4,), float(i) + random.random())


if __name__ == "__main__":
    random.seed(0)
    model = torch.nn.Linear(4, 1)
    with torch.no_grad():
        model.weight.fill_(0.5)
        model.bias.fill_(0.0)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for batch in DataLoader(Jitter(), batch_size=4, num_workers=2):
        opt.zero_grad()
        model(batch).sum().backward()
        opt.step()
"""

# Deterministic on CPU, with a CUDA flag and deterministic mode missing (RPL203, RPL301).
CPU_NUMPY = """\
import numpy as np
import torch

torch.backends.cudnn.benchmark = True

if __name__ == "__main__":
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.from_numpy(np.random.rand(8, 3)).float()
    for step in range(3):
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()
"""


def _diagnosis(verify, script, name: str, source: str) -> dict:
    path = script(name, source)
    result = verify("--diagnose", "--output-format", "json", "--", PY, path)
    assert result.status == 1, result
    return result.json()


def test_unseeded_torch_init_is_a_torch_cause(verify, script) -> None:
    data = _diagnosis(verify, script, "init.py", TORCH_INIT)
    causes = data["diagnosis"]["causes"]
    assert causes[0] == "rng:torch" and "threads" not in causes and "deterministic" not in causes
    torch_control = data["diagnosis"]["controls"][0]
    assert any(f.startswith("RPL101 ") and "torch" in f for f in torch_control["findings"])


def test_dataloader_workers_are_a_cause(verify, script) -> None:
    data = _diagnosis(verify, script, "workers.py", WORKERS)
    assert "workers" in data["diagnosis"]["causes"]
    assert "rng:torch" in data["diagnosis"]["causes"]  # the workers' seeds come from torch


def test_a_cpu_run_never_blames_a_cuda_rule_and_names_the_cause_first(verify, script) -> None:
    data = _diagnosis(verify, script, "cpu.py", CPU_NUMPY)
    assert data["diagnosis"]["causes"][0] == "rng:numpy"
    assert "cudnn" not in [c["control"]["name"] for c in data["diagnosis"]["controls"]]
    hints = data["static_hints"]
    assert hints and hints[0].split()[0] in ("RPL101", "RPL105")  # NumPy left unseeded
    assert not [h for h in hints if h.split()[0] in ("RPL203", "RPL301", "RPL302", "RPL303")]


def test_thread_and_determinism_controls_take_effect(tmp_path: Path) -> None:
    # What the injected sitecustomize applies for the threads1/deterministic/workers0 controls.
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import json, torch\nfrom torch.utils.data import DataLoader\n"
        "loader = DataLoader(list(range(4)), batch_size=2, num_workers=3)\n"
        "print(json.dumps([torch.get_num_threads(), torch.are_deterministic_algorithms_enabled(), loader.num_workers]))\n"
    )
    from reprolint.harness import process
    from reprolint.runtime import environment as renv

    env = process.harness_env(None)
    env.update({"OMP_NUM_THREADS": "1", renv.CONTROLS: "threads1,deterministic,workers0"})
    out = subprocess.run([PY, str(probe)], env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [1, True, 0], out.stderr
