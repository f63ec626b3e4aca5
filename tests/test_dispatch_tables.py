"""A function stored in a module-level table (`OPS = {"shear": shear}`) runs only where
code that runs reads the table, and an import continued by a backslash names what it
imports without using it: neither makes an uncalled helper's draws part of a program."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.analysis.module_facts import mentioned_names
from reprolint.api import check_paths

HELPERS = (
    "import random\n\n\ndef shear(x):\n    return x * random.uniform(0.9, 1.1)\n\n\n"
    "OPS = {\n    'shear': shear,\n}\n\n\n"
    "def pick(name):\n    return OPS[name]\n"
)


def _rpl101_lines(tmp_path: Path, train: str) -> list[tuple[str, int]]:
    (tmp_path / "helpers.py").write_text(HELPERS)
    (tmp_path / "train.py").write_text(train)
    found = check_paths([str(tmp_path)], jobs=1).diagnostics
    return [(Path(d.path).name, d.span.start_line) for d in found if d.code == "RPL101"]


@pytest.mark.parametrize(("train", "expected"), [
    # the table is imported, and nothing reads it: `shear` never runs
    ("import torch\nfrom helpers import OPS, \\\n    pick\n\ntorch.manual_seed(0)\nprint(torch.rand(2))\n", []),
    # the program reads the table and calls what it holds
    ("import torch\nfrom helpers import OPS\n\ntorch.manual_seed(0)\nprint(OPS['shear'](torch.rand(2)))\n",
     [("helpers.py", 5)]),
    # a function that runs reads it
    ("import torch\nfrom helpers import pick\n\ntorch.manual_seed(0)\nprint(pick('shear')(torch.rand(2)))\n",
     [("helpers.py", 5)]),
])
def test_a_stored_function_runs_where_its_table_is_read(tmp_path: Path, train: str, expected: list) -> None:
    assert _rpl101_lines(tmp_path, train) == expected


def test_the_names_of_a_table_and_of_a_continued_import_are_not_the_module_s_own() -> None:
    source = (
        "from .ops import shear, \\\n    rotate\nimport os\n"
        "OPS: dict = {'r': rotate}\nTABLE = dict(s=shear)\nresult = run(OPS)\n"
    )
    own, classes, functions, tables = mentioned_names(source)
    assert own == {"result", "run", "OPS"}
    assert tables == {"OPS": {"rotate"}, "TABLE": {"dict", "shear", "s"}}
    assert classes == {} and functions == {}


AUGMENT = (
    "import random\n\n\ndef shear(x):\n    return x * random.uniform(0.9, 1.1)\n\n\n"
    "OPS = {'shear': shear}\n\n\n"
    "class Augment:\n    def __init__(self, names):\n        self.fns = [OPS[n] for n in names]\n\n"
    "    def __call__(self, x):\n        for fn in self.fns:\n            x = fn(x)\n        return x\n"
)


@pytest.mark.parametrize(("action", "reported"), [("store_true", False), ("store_false", True)])
def test_a_stored_function_runs_under_the_conditions_of_the_code_that_reads_its_table(
    tmp_path: Path, action: str, reported: bool,
) -> None:
    (tmp_path / "augment.py").write_text(AUGMENT)
    (tmp_path / "train.py").write_text(
        "import argparse\n\nfrom augment import Augment\n\n"
        f"parser = argparse.ArgumentParser()\nparser.add_argument('--augment', action='{action}')\n"
        "args = parser.parse_args()\nif args.augment:\n    print(Augment(['shear'])(1.0))\n"
    )
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL101"]
    assert [(Path(d.path).name, d.span.start_line) for d in found] == ([("augment.py", 5)] if reported else [])
