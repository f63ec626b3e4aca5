"""File names that would forge a diff or the terminal (issue 30, item 7).

A name holding a newline injected a second header into `fix --diff`, and `patch -p1`
on that diff created a file it never meant (a `conftest.py`, which pytest then runs).
Diff headers quote such names as git does; `fix`'s listing escapes control characters
as `check` does (an ANSI or OSC sequence in a name never reaches the terminal).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXABLE = "import torch\ntorch.backends.cudnn.benchmark = True\n"


def _reprolint(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "CI": "1"}
    env.pop("REPROLINT_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "reprolint", *args], cwd=cwd, capture_output=True,
                          env=env, timeout=120)


@pytest.mark.skipif(shutil.which("patch") is None, reason="needs GNU patch")
def test_a_newline_in_a_name_cannot_make_patch_create_another_file(tmp_path: Path) -> None:
    folder = tmp_path / "x\n+++ b"  # the diff of x<newline>+++ b/run.py forged +++ b/run.py
    folder.mkdir()
    (folder / "run.py").write_text(FIXABLE)
    done = _reprolint("fix", "--diff", "--unsafe-fixes", ".", cwd=tmp_path)
    assert done.returncode == 1, done
    headers = [line for line in done.stdout.split(b"\n") if line.startswith((b"--- ", b"+++ "))]
    assert headers == [b'--- "a/x\\n+++ b/run.py"', b'+++ "b/x\\n+++ b/run.py"'], done.stdout
    applied = subprocess.run(["patch", "-p1", "--batch"], input=done.stdout, cwd=tmp_path,
                             capture_output=True, timeout=60)
    assert applied.returncode == 0, applied
    assert sorted(os.listdir(tmp_path)) == ["x\n+++ b"], os.listdir(tmp_path)
    assert "benchmark = False" in (folder / "run.py").read_text()


def test_fix_listing_escapes_terminal_sequences(tmp_path: Path) -> None:
    name = "evil\x1b]0;owned\x07\x1b[2J.py"
    (tmp_path / name).write_text(FIXABLE)
    done = _reprolint("fix", "--unsafe-fixes", ".", cwd=tmp_path)
    assert done.returncode == 1, done
    assert b"\x1b" not in done.stdout + done.stderr, done
    assert b"evil\\x1b]0;owned\\x07\\x1b[2J.py: would fix RPL203" in done.stdout, done


def test_a_non_utf8_name_is_quoted_in_the_diff(tmp_path: Path) -> None:
    with open(os.fsencode(tmp_path) + b"/bad\xff.py", "wb") as handle:
        handle.write(FIXABLE.encode())
    done = _reprolint("fix", "--diff", "--unsafe-fixes", ".", cwd=tmp_path)
    assert done.returncode == 1, done
    assert b'--- "a/bad\\377.py"\n+++ "b/bad\\377.py"\n' in done.stdout, done
