"""Python notebooks are never skipped for their metadata (issue 30, item 4).

The kernelspec's name and language and ``language_info.name`` are read together: a
notebook that any of them calls Python is analysed; one in another language is skipped,
and the summary counts and names it instead of saying "All checks passed!" alone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

CELL = ["import torch\n", "x = torch.randn(3)\n"]


def _notebook(path: Path, metadata: dict) -> None:
    path.write_text(json.dumps({
        "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": CELL}],
        "metadata": metadata, "nbformat": 4, "nbformat_minor": 5,
    }))


@pytest.mark.parametrize("metadata", [
    {"language_info": {"name": "ipython3"}},
    {"kernelspec": {"name": "python3", "language": "markdown"}},
    {"kernelspec": {"name": "python3", "language": "R", "display_name": "Python 3"}},
    {"kernelspec": {"name": "conda-env-ml-py", "language": ""}, "language_info": {"name": "ipython"}},
    {"kernelspec": {"name": "pysparkkernel", "language": "scala"}},
    {"kernelspec": {"display_name": "Python 3 (ipykernel)"}},
    {},
], ids=["ipython3", "python3-markdown", "python3-R", "conda-env", "pyspark", "display-only", "none"])
def test_a_python_notebook_is_analysed_whatever_its_odd_field(cli, tmp_path: Path, metadata: dict) -> None:
    _notebook(tmp_path / "train.ipynb", metadata)
    done = cli("check", "--no-cache", ".", cwd=tmp_path)
    assert done.status == 1, done
    assert "train.ipynb:cell 1:2:5: RPL101" in done.out, done
    assert "Skipped" not in done.out


def test_a_notebook_in_another_language_is_named_in_the_summary(cli, tmp_path: Path) -> None:
    _notebook(tmp_path / "stats.ipynb", {"kernelspec": {"name": "ir", "language": "R"},
                                         "language_info": {"name": "R"}})
    (tmp_path / "ok.py").write_text("x = 1\n")
    for _ in range(2):  # cold, then warm: the warm run names it too
        done = cli("check", ".", cwd=tmp_path)
        assert done.status == 0, done
        assert done.out.endswith("All checks passed!\nSkipped 1 file, not analysed: stats.ipynb (R notebook, not Python).\n"), done


def test_other_formats_name_the_skipped_notebook_on_stderr(cli, tmp_path: Path) -> None:
    _notebook(tmp_path / "model.ipynb", {"kernelspec": {"name": "julia-1.9", "language": "julia"}})
    done = cli("check", "--no-cache", "--output-format", "json", ".", cwd=tmp_path)
    assert done.status == 0, done
    assert json.loads(done.out) == []
    assert "reprolint: note: Skipped 1 file, not analysed: model.ipynb (julia notebook, not Python)." in done.err


def test_a_crlf_cell_without_a_last_newline_gets_no_stray_carriage_return(cli, tmp_path: Path) -> None:
    # issue 30 (minor): the fix's lines after such a cell's last line ended in a lone "\r".
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps({
        "cells": [
            {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
             "source": ["import torch\r\n", "import numpy"]},
            {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
             "source": ["x = torch.randn(3)\r\n"]},
        ],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
    }, indent=1))
    done = cli("fix", "--write", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    assert done.status == 0, done
    first = json.loads(path.read_text())["cells"][0]["source"]
    assert first[:2] == ["import torch\r\n", "import numpy\r\n"], first
    assert all(line.endswith("\r\n") for line in first[:-1]) and not first[-1].endswith(("\r", "\n")), first
    assert cli("fix", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path).status == 0  # converged
