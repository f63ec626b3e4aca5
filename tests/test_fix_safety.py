"""`reprolint fix` on hostile or unusual input (issue 15): a fix never changes what a
program computes beyond seeding, and the write phase never loses or corrupts a file."""

from __future__ import annotations

import libcst as cst
import pytest

from reprolint import fixes
from reprolint.api import check_source, fix_source
from reprolint.config import Settings


@pytest.fixture(autouse=True)
def strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPROLINT_FIX_STRICT", "1")


# -- a moved seed never goes above what feeds it


OPTIONAL_SEED = (
    "import argparse\nimport random\n\n"
    "parser = argparse.ArgumentParser()\n"
    'parser.add_argument("--seed", type=int, default=None)\n'
    "opt = parser.parse_args()\n"
    "x = random.random()\n"
    "{feed}\n"
    "random.seed({value})\n"
)


@pytest.mark.parametrize(
    ("feed", "value"),
    [
        ("if opt.seed is None:\n    opt.seed = random.randint(1, 10000)", "opt.seed"),
        ("opt.seed += 1", "opt.seed"),
        ('cfg = {}\ncfg["seed"] = 3', 'cfg["seed"]'),
        ("configure(opt)", "opt.seed"),
        ("opt.update(seed=4)", "opt.seed"),
        ("setup()", "opt.seed"),
        ("del opt.seed", "getattr(opt, 'seed', 0)"),
    ],
)
def test_a_seed_is_never_moved_above_what_feeds_it(feed: str, value: str) -> None:
    source = OPTIONAL_SEED.format(feed=feed, value=value)
    fixed = fix_source(source, "train.py", unsafe_fixes=True)
    seed_line = f"random.seed({value})"
    # Whatever else the fix does, the seeding call still runs after what it reads.
    assert fixed.index(seed_line) > fixed.index(feed.splitlines()[-1].strip())
    assert compile(fixed, "train.py", "exec")


def test_a_seed_that_reads_nothing_assigned_still_moves() -> None:
    source = "import random\n\nx = random.random()\nmodel = build()\nrandom.seed(0)\n"
    fixed = fix_source(source, "train.py", unsafe_fixes=True)
    assert fixed == "import random\n\nrandom.seed(0)\nx = random.random()\nmodel = build()\n"
    assert not [d for d in check_source(fixed, "train.py") if d.code == "RPL101"]


def test_a_seed_reading_a_value_moves_over_library_draws_only() -> None:
    source = "import random\nSEED = 3\n\nx = random.random()\nrandom.seed(SEED)\n"
    fixed = fix_source(source, "train.py", unsafe_fixes=True)
    assert fixed == "import random\nSEED = 3\n\nrandom.seed(SEED)\nx = random.random()\n"


@pytest.mark.parametrize(
    "jumped",
    ["opt.seed = 1", "opt[0] = 1", "opt.seed += 1", "del opt.seed", "configure(opt)", "helper()"],
)
def test_can_move_before_refuses_whatever_may_assign_what_it_reads(jumped: str) -> None:
    module = cst.parse_module(f"x = random.random()\n{jumped}\nrandom.seed(opt.seed)\n")
    body = module.body
    assert not fixes.can_move_before(body, body[2], body[0], {"random"})


# -- the inline fix goes after every import of the names it uses

SPLIT_IMPORTS = (
    "import os\nimport warnings\n"
    'warnings.filterwarnings("ignore")\n'
    "import random\n\n"
    "x = random.random()\n"
)


def test_inline_fix_goes_after_an_import_block_split_by_a_statement() -> None:
    inline = Settings().replace(fix_style="inline")
    fixed = fix_source(SPLIT_IMPORTS, "train.py", inline, unsafe_fixes=True)
    assert fixed.index("import random") < fixed.index("seed_everything(0)\n")
    assert fixed.index("seed_everything(0)\n") < fixed.index("x = random.random()")
    exec(compile(fixed, "train.py", "exec"), {"__name__": "__main__"})  # no NameError
    # check and fix agree afterwards: nothing left to report, nothing left to fix.
    assert not check_source(fixed, "train.py")
    assert fix_source(fixed, "train.py", inline, unsafe_fixes=True) == fixed


def test_inline_determinism_lines_go_after_a_late_torch_import() -> None:
    source = (
        "import os\nimport warnings\n"
        'warnings.filterwarnings("ignore")\n'
        "import torch\n\n"
        "torch.manual_seed(0)\n"
        "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
        "model = torch.nn.Linear(2, 1).to(device)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "model(x).sum().backward()\n"
    )
    inline = Settings().replace(fix_style="inline")
    fixed = fix_source(source, "train.py", inline, unsafe_fixes=True)
    assert "use_deterministic_algorithms(True)" in fixed
    assert fixed.index("import torch") < fixed.index("torch.use_deterministic_algorithms(True)")


def test_no_place_between_a_late_import_and_a_drawing_project_import_gives_no_fix() -> None:
    from reprolint.fixes.insert import import_block_end

    module = cst.parse_module("import os\nimport weights\nprint(1)\nimport random\n")
    stop = lambda statement: "weights" in cst.Module([statement]).code  # noqa: E731
    with pytest.raises(LookupError):
        import_block_end(module, stop, {"random"})
    assert import_block_end(module, stop) == 1
