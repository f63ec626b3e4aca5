"""The level of every fix (issue 27 item 1): safe when every run of the fixed program is
a run the original could have produced, unsafe when it changes an outcome the program
already fixed or can make it fail. `fix --write` alone applies the safe ones."""

from __future__ import annotations

import pytest

from reprolint.api import check_source, fix_source
from reprolint.checks.registry import all_rules

TRAIN_CUDA = (
    "import torch\n\nif __name__ == '__main__':\n"
    "    m = torch.nn.Linear(2, 2).cuda()\n"
    "    opt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
    "    for i in range(3):\n"
    "        opt.zero_grad()\n"
    "        m(torch.ones(2, 2).cuda()).index_select(0, idx).sum().backward()\n"
    "        opt.step()\n"
)

CASES = [
    # (id, source, code, level)
    ("never-seeded", "import torch\nx = torch.randn(3)\n", "RPL101", "safe"),
    ("seed-moved-above-draws", "import random\n\nx = random.random()\nmodel = build()\nrandom.seed(0)\n", "RPL101", "unsafe"),
    # `install()` turns deterministic mode on: `histc` on CUDA would raise (it only counts,
    # so RPL202 leaves it while the mode is off, but the fix turns the mode on).
    ("never-seeded-raising-op", "import torch\nx = torch.randn(3, device='cuda')\ny = torch.histc(x)\n", "RPL101", "unsafe"),
    ("tensorflow-program", "import tensorflow as tf\nx = tf.random.normal([2])\n", "RPL101", "unsafe"),
    ("entropy-generator", "import numpy as np\nrng = np.random.default_rng()\nprint(rng.normal())\n", "RPL102", "safe"),
    ("entropy-seed", "import random, time\nrandom.seed(time.time())\nprint(random.random())\n", "RPL103", "safe"),
    (
        "conditional-seed",
        "import argparse, torch\np = argparse.ArgumentParser()\n"
        "p.add_argument('--seed', type=int, default=None)\na = p.parse_args()\n"
        "if a.seed is not None:\n    torch.manual_seed(a.seed)\nprint(torch.rand(2))\n",
        "RPL104", "safe",
    ),
    ("partial-seed", "import torch, numpy as np\ntorch.manual_seed(0)\nprint(torch.rand(2), np.random.rand(2))\n", "RPL101", "safe"),
    ("cudnn-benchmark", "import torch\ntorch.backends.cudnn.benchmark = True\n", "RPL203", "unsafe"),
    ("deterministic-mode", TRAIN_CUDA, "RPL301", "safe"),
    (
        "deterministic-mode-raising-op",
        TRAIN_CUDA + "        torch.histc(torch.ones(3).cuda())\n", "RPL301", "unsafe",
    ),
    ("set-of-strings", "text = open('input.txt').read()\nchars = list(set(text))\n", "RPL401", "safe"),
    ("listing", "import os\nfiles = os.listdir('d')\ntrain = files[:10]\n", "RPL402", "safe"),
]


@pytest.mark.parametrize(("source", "code", "level"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_fix_has_the_level_of_what_it_changes(source: str, code: str, level: str) -> None:
    [found] = [d for d in check_source(source, "train.py") if d.code == code]
    assert found.fix is not None and found.fix.applicability.value == level
    fixed = fix_source(source, "train.py")
    # `fix --write` alone applies exactly the safe fixes.
    still = [d for d in check_source(fixed, "train.py") if d.code == code]
    if level == "safe":
        assert not still, fixed
    else:
        assert fixed == source and still
        assert fix_source(source, "train.py", unsafe_fixes=True) != source


@pytest.mark.parametrize(("source", "code", "level"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_check_counts_the_level_fix_uses(cli, project, source: str, code: str, level: str) -> None:
    root = project({"train.py": source})
    last = cli("check", "--select", code, "train.py", cwd=root).out.splitlines()[-1]
    hint = "`reprolint fix --unsafe-fixes`" if level == "unsafe" else "`reprolint fix`"
    assert last.endswith(f"fixable with {hint}).")


def test_every_rule_with_a_fix_states_its_level_by_the_reproducibility_rule() -> None:
    for rule in all_rules():
        if rule.fix_applicability is None:
            continue
        text = " ".join(rule.section("Fix safety").split())
        assert text.lower().startswith(("safe", "unsafe", "display-only")), rule.code


def test_explain_states_the_rule(cli) -> None:
    out = cli("explain", "RPL101").out
    assert "Fix: safe, or unsafe." in out
    assert "a run the original program could have produced" in " ".join(out.split())
