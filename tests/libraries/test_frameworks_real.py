"""The program model's list of the methods torch's own code may call on a module
(``reprolint.catalog.frameworks``), checked against the real ``torch.nn.Module``."""

from __future__ import annotations

import pytest

from reprolint.api import check_source
from reprolint.catalog.frameworks import CLOSED_BASES, TORCH_MODULE_METHODS

torch = pytest.importorskip("torch")


def test_the_catalog_holds_every_method_torch_nn_module_defines():
    defined = {name for name in vars(torch.nn.Module) if not (name.startswith("__") and name.endswith("__"))}
    assert defined <= TORCH_MODULE_METHODS, sorted(defined - TORCH_MODULE_METHODS)
    assert CLOSED_BASES["torch.nn.Module"] is TORCH_MODULE_METHODS
    assert torch.nn.Module.__module__ + ".Module" in CLOSED_BASES


def test_a_module_method_no_code_names_draws_nothing_and_an_override_of_train_runs():
    """``sample`` (no code names it) runs for nobody; ``train`` overrides the module's own
    method, which ``eval()`` calls inside torch, so its draw counts."""
    source = (
        "import numpy as np\nimport torch\nimport torch.nn as nn\n"
        "class Net(nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(2, 2)\n"
        "    def sample(self):\n        return np.random.rand()\n"
        "    def train(self, mode=True):\n        self.flip = np.random.rand() < 0.5\n        return super().train(mode)\n"
        "torch.manual_seed(0)\nnet = Net().eval()\nprint(net(torch.ones(1, 2)))\n"
    )
    found = [(d.code, d.span.start_line) for d in check_source(source, path="run.py") if d.code == "RPL101"]
    assert found == [("RPL101", 11)]
    net = torch.nn.Linear(2, 2)
    calls = []
    original = torch.nn.Linear.train
    try:
        torch.nn.Linear.train = lambda self, mode=True: calls.append(mode) or original(self, mode)
        net.eval()
    finally:
        torch.nn.Linear.train = original
    assert calls == [False]  # torch's eval() calls the (overridden) train(False)
