"""A lambda stored for later (a dict of layer factories, an attribute, a name) runs when
something calls it, not where it is written: a draw in its body is not drawn at import,
before the entry point's seed. A lambda given to a call (`sorted(key=...)`,
`model.apply(...)`) runs around that call, as before."""
from __future__ import annotations

import pytest

from reprolint.api import check_sources

OPS = '''import torch.nn as nn

OPS = {
    "conv": lambda C: nn.Conv2d(C, C, 3, padding=1),
    "skip": lambda C: nn.Identity(),
}
'''

MAIN = '''import torch
import torch.nn as nn

import ops

SEED
model = nn.Sequential(ops.OPS["conv"](3), nn.ReLU())
opt = torch.optim.SGD(model.parameters(), lr=0.1)
model(torch.ones(1, 3, 8, 8)).sum().backward()
opt.step()
'''


def findings(seed: str) -> list[tuple[str, int, str]]:
    found = check_sources({"ops.py": OPS, "main.py": MAIN.replace("SEED", seed)})
    return [(d.path, d.span.start_line, d.message) for d in found if d.code == "RPL101"]


def test_a_stored_lambda_draws_when_called_after_the_seed() -> None:
    assert findings("torch.manual_seed(0)") == []


def test_a_stored_lambda_still_draws_where_nothing_seeds() -> None:
    [(path, line, message)] = findings("pass")
    assert (path, line) == ("ops.py", 4)
    assert "never seeded" in message


@pytest.mark.parametrize("body", [
    "sizes = sorted([3, 1], key=lambda n: float(torch.rand(1)) + n)\n",
    "model = nn.Linear(2, 2)\nmodel.apply(lambda m: nn.init.normal_(m.weight) if isinstance(m, nn.Linear) else None)\n",
])
def test_a_lambda_given_to_a_call_runs_there(body: str) -> None:
    source = "import torch\nimport torch.nn as nn\n\n" + body + "torch.manual_seed(0)\n"
    found = [d for d in check_sources({"main.py": source}) if d.code == "RPL101"]
    assert found and "before `torch.manual_seed` runs" in found[0].message
