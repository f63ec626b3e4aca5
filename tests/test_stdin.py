"""Editor use: source on stdin (`--stdin-filename NAME -`), `--statistics`, `--quiet`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

# RPL101 is reported once per program and library, at the first draw: the `random` draw
# is its own finding, the second torch draw a related location of the first.
UNSEEDED = "import random\nimport torch\n\nx = torch.randn(3)\ny = random.random()\nz = torch.rand(2)\n"
MESSAGE = (
    "`torch.{func}` draws from torch's global RNG, which is never seeded on this "
    "program's path (entry point: {entry})"
)
RANDOM_MESSAGE = (
    "`random.random` draws from the `random` module's global RNG, which is never seeded on "
    "this program's path (entry point: {entry})"
)


def reprolint(*args: str, stdin: str, cwd: Path) -> subprocess.CompletedProcess:
    """The real command, fed through a pipe as an editor does."""
    return subprocess.run(
        [sys.executable, "-m", "reprolint.cli", *args],
        input=stdin.encode(), cwd=cwd, capture_output=True, timeout=120,
    )


def test_stdin_is_reported_under_the_given_name(tmp_path: Path) -> None:
    done = reprolint("check", "--stdin-filename", "src/train.py", "-", stdin=UNSEEDED, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout.decode().splitlines() == [
        "src/train.py:4:5: RPL101 " + MESSAGE.format(func="randn", entry="src/train.py"),
        "src/train.py:5:5: RPL101 " + RANDOM_MESSAGE.format(entry="src/train.py"),
        "Found 2 problems (2 fixable with `reprolint fix`).",
    ]
    assert done.stderr == b""


def test_dash_alone_reads_stdin(tmp_path: Path) -> None:
    done = reprolint("check", "--output-format", "concise", "-", stdin=UNSEEDED, cwd=tmp_path)
    assert done.stdout.decode().splitlines()[0] == (
        "<stdin>:4:5: RPL101 " + MESSAGE.format(func="randn", entry="<stdin>")
    )


def test_clean_stdin_exits_0(tmp_path: Path) -> None:
    seeded = "import torch\ntorch.manual_seed(0)\nx = torch.randn(3)\n"
    done = reprolint("check", "--stdin-filename", "train.py", "-", stdin=seeded, cwd=tmp_path)
    assert (done.returncode, done.stdout.decode()) == (0, "All checks passed!\n")


def test_stdin_uses_the_configuration_beside_the_named_file(tmp_path: Path) -> None:
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "pyproject.toml").write_text('[tool.reprolint]\nignore = ["RPL101"]\n')
    done = reprolint("check", "--stdin-filename", "proj/train.py", "-", stdin=UNSEEDED, cwd=tmp_path)
    assert (done.returncode, done.stdout.decode()) == (0, "All checks passed!\n")


def test_stdin_in_json_for_editor_integrations(tmp_path: Path) -> None:
    done = reprolint(
        "check", "--output-format", "json", "--stdin-filename", "train.py", "-",
        stdin=UNSEEDED, cwd=tmp_path,
    )
    items = json.loads(done.stdout)
    assert [(i["path"], i["line"], i["column"], i["code"]) for i in items] == [
        ("train.py", 4, 5, "RPL101"), ("train.py", 5, 5, "RPL101"),
    ]
    assert [i["entry_points"] for i in items] == [["train.py"], ["train.py"]]
    # The later torch draw is where an editor can jump from the torch finding.
    assert [[(r["path"], r["line"], r["column"]) for r in i["related"]] for i in items] == [
        [("train.py", 6, 5)], [],
    ]


def test_notebook_on_stdin(tmp_path: Path) -> None:
    nb = {
        "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                   "source": ["import torch\n", "x = torch.randn(3)\n"]}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
    }
    done = reprolint(
        "check", "--output-format", "concise", "--stdin-filename", "nb.ipynb", "-",
        stdin=json.dumps(nb), cwd=tmp_path,
    )
    assert done.stdout.decode() == (
        "nb.ipynb:cell 1:2:5: RPL101 " + MESSAGE.format(func="randn", entry="nb.ipynb") + "\n"
    )


def test_syntax_error_on_stdin_is_a_finding_not_a_crash(tmp_path: Path) -> None:
    done = reprolint("check", "--stdin-filename", "t.py", "-", stdin="def f(:\n", cwd=tmp_path)
    assert done.returncode == 1
    assert " RPL900 Failed to parse t.py: syntax error" in done.stdout.decode()


def test_statistics_counts_per_code(tmp_path: Path) -> None:
    done = reprolint("check", "--statistics", "-", stdin=UNSEEDED, cwd=tmp_path)
    assert done.stdout.decode() == "2  RPL101  unseeded-global-rng\nFound 2 problems (2 fixable with `reprolint fix`).\n"


def test_quiet_drops_the_summary(tmp_path: Path) -> None:
    done = reprolint("check", "--quiet", "--stdin-filename", "t.py", "-", stdin=UNSEEDED, cwd=tmp_path)
    assert done.returncode == 1
    lines = done.stdout.decode().splitlines()
    assert lines == [
        "t.py:4:5: RPL101 " + MESSAGE.format(func="randn", entry="t.py"),
        "t.py:5:5: RPL101 " + RANDOM_MESSAGE.format(entry="t.py"),
    ]
    quiet_clean = reprolint("check", "-q", "-", stdin="x = 1\n", cwd=tmp_path)
    assert (quiet_clean.returncode, quiet_clean.stdout) == (0, b"")
