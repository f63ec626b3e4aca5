"""`reprolint fix` on notebooks: cell by cell, outputs and metadata kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOK = """{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": 1,
   "id": "setup",
   "metadata": {"tags": ["setup"]},
   "outputs": [],
   "source": [
    "%matplotlib inline\\n",
    "import os\\n",
    "import numpy as np"
   ]
  },
  {
   "cell_type": "markdown",
   "id": "md",
   "metadata": {},
   "source": ["# Data"]
  },
  {
   "cell_type": "code",
   "execution_count": 2,
   "id": "data",
   "metadata": {"collapsed": true},
   "outputs": [{"name": "stdout", "output_type": "stream", "text": ["a.png\\n"]}],
   "source": [
    "x = np.random.rand(3)\\n",
    "files = os.listdir('.')\\n",
    "print(files[0])"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 3,
   "id": "untouched",
   "metadata": {},
   "outputs": [],
   "source": ["np.save('x.npy', x)"]
  }
 ],
 "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
 "nbformat": 4,
 "nbformat_minor": 5
}
"""


@pytest.fixture(autouse=True)
def strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPROLINT_FIX_STRICT", "1")


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def test_write_changes_only_the_fixed_cells(cli, project) -> None:
    root = project({"nb.ipynb": NOTEBOOK})
    result = cli("fix", "--write", "--unsafe-fixes", "--fix-style", "inline", "nb.ipynb", cwd=root)
    assert result.status == 0, result.err
    assert result.out == "Fixed 2 problems in 1 file.\n"
    before, after = json.loads(NOTEBOOK)["cells"], _cells(root / "nb.ipynb")
    assert "".join(after[0]["source"]) == (
        "%matplotlib inline\nimport os\nimport numpy as np\n\n\n"
        "def seed_everything(seed):\n"
        '    """Seed every random generator this program uses."""\n'
        "    np.random.seed(seed)\n\n\nseed_everything(0)"
    )
    assert "".join(after[2]["source"]) == (
        "x = np.random.rand(3)\nfiles = sorted(os.listdir('.'))\nprint(files[0])"
    )
    # Everything but the changed sources is as it was: outputs, metadata, ids, markdown.
    for old, new in zip(before, after):
        assert {k: v for k, v in old.items() if k != "source"} == {
            k: v for k, v in new.items() if k != "source"
        }
    assert after[1] == before[1] and after[3] == before[3]
    text = (root / "nb.ipynb").read_text(encoding="utf-8")
    untouched = NOTEBOOK[NOTEBOOK.index('   "id": "untouched"'):]
    assert text.endswith(untouched)  # the file's own formatting, byte for byte
    # Converged: nothing left to fix, and `check` no longer reports them.
    assert cli("fix", "--unsafe-fixes", "--fix-style", "inline", "nb.ipynb", cwd=root).status == 0
    codes = [i["code"] for i in json.loads(cli("check", "--output-format", "json", "nb.ipynb", cwd=root).out)]
    assert "RPL101" not in codes and "RPL402" not in codes


def test_diff_is_the_notebook_file_diff(cli, project) -> None:
    root = project({"nb.ipynb": NOTEBOOK})
    result = cli("fix", "--diff", "--unsafe-fixes", "nb.ipynb", cwd=root)
    assert result.status == 1
    assert result.out.startswith("--- a/nb.ipynb\n+++ b/nb.ipynb\n")
    assert '-    "files = os.listdir(\'.\')\\n",\n' in result.out
    assert '+    "files = sorted(os.listdir(\'.\'))\\n",\n' in result.out
    assert '+    "reprolint.runtime.install(seed=0)"\n' in result.out
    assert '"outputs"' not in "".join(l for l in result.out.splitlines(True) if l[:1] in "+-")
    assert (root / "nb.ipynb").read_text(encoding="utf-8") == NOTEBOOK  # --diff writes nothing


def test_a_fix_on_a_magic_line_is_dropped_and_reported(cli, project) -> None:
    notebook = json.loads(NOTEBOOK)
    notebook["cells"][2]["source"] = ["%time files = os.listdir('.')\n", "print(files[0])"]
    root = project({"nb.ipynb": json.dumps(notebook, indent=1)})
    result = cli("fix", "--write", "--unsafe-fixes", "--select", "RPL402", "nb.ipynb", cwd=root)
    assert "fixes dropped: a fix would change an IPython magic line" in result.err
    assert _cells(root / "nb.ipynb")[2]["source"] == ["%time files = os.listdir('.')\n", "print(files[0])"]
