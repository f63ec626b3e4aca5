"""`reprolint check projects/adder` in a minGPT-shaped repository: the project's own
imports (`mingpt.*`) resolve to nothing among the checked files, so the check says which
were not found and suggests checking from the repository root (issue 17, item 7)."""

from __future__ import annotations

from pathlib import Path

MINGPT = {
    "setup.py": "from setuptools import setup\nsetup(name='mingpt')\n",
    "mingpt/__init__.py": "",
    "mingpt/utils.py": "import random\nimport torch\n\ndef set_seed(seed):\n    random.seed(seed)\n    torch.manual_seed(seed)\n",
    "mingpt/model.py": "import torch.nn as nn\n\nclass GPT(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.head = nn.Linear(4, 4)\n",
    "projects/adder/adder.py": (
        "import torch\nfrom mingpt.model import GPT\nfrom mingpt.utils import set_seed\n\n"
        "if __name__ == '__main__':\n    set_seed(3407)\n    model = GPT()\n    print(torch.rand(1))\n"
    ),
}


def test_unresolved_project_imports_get_a_note_on_stderr(cli, project) -> None:
    root = project(MINGPT)
    result = cli("check", "--no-cache", "projects/adder", cwd=root)
    notes = [line for line in result.err.splitlines() if line.startswith("reprolint: note:")]
    assert len(notes) == 1, result.err
    assert "`mingpt.model`, `mingpt.utils` (imported by projects/adder/adder.py) not found" in notes[0]
    assert f"`mingpt` is in {Path(root).resolve()}: check from the repository root" in notes[0]
    assert "note" not in result.out  # a note, not a finding


def test_checking_from_the_repository_root_needs_no_note(cli, project) -> None:
    root = project(MINGPT)
    result = cli("check", "--no-cache", ".", cwd=root)
    assert "reprolint: note:" not in result.err
    assert result.status == 0, result.out  # set_seed in mingpt/utils.py seeds torch before the draws


def test_third_party_imports_are_not_reported(cli, project) -> None:
    root = project({"app/train.py": "import einops\nimport torch\ntorch.manual_seed(0)\nprint(torch.rand(1))\n"})
    result = cli("check", "--no-cache", "app", cwd=root)
    assert "reprolint: note:" not in result.err
