"""What runs decides (stop 55): a helper module's function nobody calls holds no listing
or set order that a program takes, while a package's the project builds for others
stays library code (stop 58: a package no setup file declares is the scripts' own); a concatenation
of listings is one listing; tests of an entry's own values and comprehensions that only
print use no order; an op on a view of a parameter is judged by what the callers pass."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths


def _found(root: Path, code: str) -> list[tuple[str, int, int]]:
    found = check_paths([str(root)], jobs=1).diagnostics
    return sorted((Path(d.path).relative_to(root).as_posix(), d.span.start_line, d.span.start_col)
                  for d in found if d.code == code)


HELPERS = (
    "import glob\n\n\n"
    "def used(d):\n    return len(glob.glob(d + '/*'))\n\n\n"
    "def load_results(d):\n    files = glob.glob(d + '/*.csv')\n    return files[-1]\n"
)
SET_HELPERS = (
    "def used(words):\n    return len(words)\n\n\n"
    "def vocab(lines):\n    words = set(w for line in lines for w in line.split())\n"
    "    return {w: i for i, w in enumerate(words)}\n"
)


@pytest.mark.parametrize(("code", "text", "line"), [("RPL402", HELPERS, 9), ("RPL401", SET_HELPERS, 7)])
def test_an_uncalled_function_of_a_flat_helper_module_runs_for_no_program(
    tmp_path: Path, code: str, text: str, line: int,
) -> None:
    (tmp_path / "helpers.py").write_text(text)
    (tmp_path / "run.py").write_text("from helpers import used\n\nprint(used('x'))\n")
    assert _found(tmp_path, code) == []
    # the same function in the scripts' own package (no setup file declares it) runs
    # nowhere either (stop 58)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "helpers.py").write_text(text)
    (tmp_path / "run.py").write_text("from helpers import used\nfrom pkg.helpers import used as used2\n\nprint(used('x'), used2('y'))\n")
    assert _found(tmp_path, code) == []
    # in a package the project builds for others it is library code a user may call
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'pkg'\nversion = '0.1'\n")
    assert [f[:2] for f in _found(tmp_path, code)] == [("pkg/helpers.py", line)]


def test_a_called_function_of_a_flat_helper_module_is_reported(tmp_path: Path) -> None:
    (tmp_path / "helpers.py").write_text(HELPERS)
    (tmp_path / "run.py").write_text("from helpers import load_results\n\nprint(load_results('x'))\n")
    assert [f[:2] for f in _found(tmp_path, "RPL402")] == [("helpers.py", 9)]


CONCATENATED = (
    "from pathlib import Path\n\nimport torch\n\n"
    "d = Path('runs')\n"
    "ckpts = list(d.glob('*.bin')) + list(d.glob('*.pth')) + list(d.glob('*.pt'))\n"
    "{use}"
    "torch.save(torch.load(ckpts[-1]), 'out.pt')\n"
)


def test_concatenated_listings_sorted_in_place_use_no_order(tmp_path: Path) -> None:
    (tmp_path / "pick.py").write_text(CONCATENATED.format(use="ckpts.sort()\n"))
    assert _found(tmp_path, "RPL402") == []


def test_concatenated_listings_used_unsorted_are_one_finding_at_the_first(tmp_path: Path) -> None:
    (tmp_path / "pick.py").write_text(CONCATENATED.format(use=""))
    assert _found(tmp_path, "RPL402") == [("pick.py", 6, 14)]


LOOP = (
    "import json\nfrom pathlib import Path\n\nimport torch\n\n"
    "found = []\n"
    "for p in Path('cfg').glob('*.json'):\n"
    "    cfg = json.load(open(p))\n"
    "    if {test}(k in cfg for k in ('a', 'b')):\n"
    "        {keep}\n"
    "{after}"
)


def test_a_loop_that_tests_each_entry_with_all_or_any_uses_no_order(tmp_path: Path) -> None:
    for test in ("all", "any"):
        (tmp_path / "scan.py").write_text(LOOP.format(test=test, keep="print(p)", after=""))
        assert _found(tmp_path, "RPL402") == [], test


def test_a_loop_that_keeps_entries_in_order_is_still_reported(tmp_path: Path) -> None:
    (tmp_path / "scan.py").write_text(LOOP.format(
        test="all", keep="found.append(p)", after="torch.save(torch.load(found[0]), 'x.pt')\n"))
    assert [f[:2] for f in _found(tmp_path, "RPL402")] == [("scan.py", 7)]


@pytest.mark.parametrize(("statement", "reported"), [
    ("[print(c) for c in ckpts]\n", False),
    ("[chosen.append(c) for c in ckpts]\ntorch.save(torch.load(chosen[0]), 'x.pt')\n", True),
])
def test_a_comprehension_statement_is_judged_like_a_loop(tmp_path: Path, statement: str, reported: bool) -> None:
    (tmp_path / "show.py").write_text(
        "import glob\n\nimport torch\n\nchosen = []\nckpts = glob.glob('runs/*.pt')\n" + statement)
    assert bool(_found(tmp_path, "RPL402")) is reported


RESIZE = (
    "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
    "def resize(pos_embed, size):\n"
    "    tokens = pos_embed[:, 1:]\n"
    "    tokens = tokens.reshape(1, 7, 7, -1).permute(0, 3, 1, 2)\n"
    "    return F.interpolate(tokens, size=(size, size), mode='bicubic')\n\n\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.pos = nn.Parameter(torch.zeros(1, 50, 8))\n"
    "        self.fc = nn.Linear(8, 2)\n\n"
    "    def forward(self, x):\n"
    "        return self.fc(x{extra})\n\n\n"
    "torch.manual_seed(0)\n"
    "torch.use_deterministic_algorithms(True)\n"
    "model = Net().cuda()\n"
    "state = torch.load('ckpt.pth', map_location='cpu')\n"
    "state['pos'] = resize(state['pos'], 14)\n"
    "model.load_state_dict(state, strict=False)\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "for _ in range(10):\n"
    "    loss = model(torch.randn(4, 8).cuda()).sum()\n"
    "    opt.zero_grad()\n"
    "    loss.backward()\n"
    "    opt.step()\n"
)


def test_an_op_on_a_view_of_a_checkpoint_tensor_runs_no_backward(tmp_path: Path) -> None:
    (tmp_path / "finetune.py").write_text(RESIZE.format(extra=""))
    assert _found(tmp_path, "RPL202") == []


def test_an_op_on_a_view_of_a_trained_parameter_is_reported(tmp_path: Path) -> None:
    (tmp_path / "finetune.py").write_text(RESIZE.format(extra=" + resize(self.pos, 14).mean()"))
    assert [f[:2] for f in _found(tmp_path, "RPL202")] == [("finetune.py", 9)]


def test_a_called_helper_s_extended_listing_is_reported(tmp_path: Path) -> None:
    # a listing held by `+=` in a helper the script calls: the helper runs
    (tmp_path / "helpers.py").write_text(
        "import glob\n\n\ndef newest(d):\n    files = []\n    files += glob.glob(d + '/*.pt')\n    return files[-1]\n")
    (tmp_path / "run.py").write_text("from helpers import newest\n\nprint(newest('x'))\n")
    assert [f[:2] for f in _found(tmp_path, "RPL402")] == [("helpers.py", 6)]


def test_the_functions_of_a_hubconf_are_torch_hub_entries(tmp_path: Path) -> None:
    # `torch.hub.load` calls a hubconf.py's functions: they are no uncalled helpers
    text = HELPERS.replace("def load_results(d):", "def create(d):")
    (tmp_path / "hubconf.py").write_text(text)
    (tmp_path / "helpers.py").write_text(text)
    (tmp_path / "run.py").write_text("from helpers import used\nimport hubconf\n\nprint(used('x'), hubconf.used('y'))\n")
    assert [f[:2] for f in _found(tmp_path, "RPL402")] == [("hubconf.py", 9)]


def test_a_packaging_script_s_listings_order_no_training_result(tmp_path: Path) -> None:
    build = (Path(__file__).parent.parent / "corpus" / "projects" / "cuda_ops_build" / "build_ops.py").read_text()
    (tmp_path / "setup.py").write_text(build)
    assert _found(tmp_path, "RPL402") == []
    # the same globs in a module that builds nothing are reported
    (tmp_path / "setup.py").write_text(build.replace("from setuptools import setup\n", "").replace(
        "    setup(\n", "    dict(\n"))
    assert [f[:2] for f in _found(tmp_path, "RPL402")] == [("setup.py", 15), ("setup.py", 16)]


EXP_UTILS = (
    "import os\nimport shutil\n\n\n"
    "def create_exp_dir(path, scripts_to_save=None):\n"
    "    os.makedirs(path, exist_ok=True)\n"
    "    if scripts_to_save is not None:\n"
    "        for script in scripts_to_save:\n"
    "            shutil.copyfile(script, os.path.join(path, os.path.basename(script)))\n\n\n"
    "def first(path, files):\n"
    "    for name in files:\n"
    "        return os.path.join(path, name)\n"
)


@pytest.mark.parametrize(("call", "reported"), [
    ("exp_utils.create_exp_dir('exp', scripts_to_save=glob.glob('*.py'))", False),
    ("exp_utils.create_exp_dir('exp', glob.glob('*.py'))", False),
    ("scripts = glob.glob('*.py')\nexp_utils.create_exp_dir('exp', scripts)", False),
    ("print(exp_utils.first('exp', glob.glob('*.py')))", True),  # stops at the first entry
    ("scripts = glob.glob('*.py')\nexp_utils.create_exp_dir('exp', scripts)\nprint(scripts)", True),
])
def test_a_listing_handed_to_a_function_that_handles_each_entry_alone(tmp_path: Path, call: str, reported: bool) -> None:
    (tmp_path / "exp_utils.py").write_text(EXP_UTILS)
    (tmp_path / "train.py").write_text(
        "import glob\n\nimport torch\n\nimport exp_utils\n\n" + call + "\n"
        "model = torch.nn.Linear(2, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "loss = model(torch.ones(1, 2)).sum()\nloss.backward()\nopt.step()\n")
    assert bool(_found(tmp_path, "RPL402")) is reported
