"""A training loop in a body no call of the project reaches (a job object's `__call__`
that a cluster launcher runs) trains, even in a program that loads a checkpoint: that is
fine-tuning. A bare optimizer factory there (`configure_optimizers`) trains nothing."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths

JOB = (
    "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
    "class Job:\n"
    "    def __call__(self):\n"
    "        device = torch.device('cuda')\n"
    "        model = nn.Conv2d(3, 4, 3).to(device)\n"
    "        model.load_state_dict(torch.load('pretrained.pt'))\n"
    "        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "{body}"
)
LOOP = (
    "        for x in torch.load('data.pt'):\n"
    "            loss = model(x.to(device)).mean()\n"
    "            optimizer.zero_grad()\n"
    "            loss.backward()\n"
    "            optimizer.step()\n"
)
FACTORY_ONLY = "        return optimizer\n"
LAUNCH = "import submitit\nfrom job import Job\n\nsubmitit.AutoExecutor(folder='logs').submit(Job())\n"


@pytest.mark.parametrize(("body", "trains"), [(LOOP, True), (FACTORY_ONLY, False)])
def test_a_submitted_job_s_loop_trains_after_loading_weights(tmp_path: Path, body: str, trains: bool) -> None:
    (tmp_path / "job.py").write_text(JOB.format(body=body))
    (tmp_path / "launch.py").write_text(LAUNCH)
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL302"]
    assert [(Path(d.path).name, d.span.start_line, d.entry_points) for d in found] == (
        [("job.py", 8, (str(tmp_path / "launch.py"),))] if trains else []
    )
