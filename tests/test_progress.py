"""The progress bar shows on a terminal for long checks only; colour follows NO_COLOR/FORCE_COLOR."""

from __future__ import annotations

import io
import os
import re
import select
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest

from reprolint.progress import PROGRESS_THRESHOLD, FileProgress, wants_progress

pty = pytest.importorskip("pty")  # POSIX only

SGR = re.compile(rb"\x1b\[([0-9;]*)m")


def has_colour(data: bytes) -> bool:
    """Whether ``data`` sets a foreground or background colour (bold is not a colour)."""
    for match in SGR.finditer(data):
        for param in match.group(1).split(b";"):
            if param and (30 <= int(param) <= 48 or 90 <= int(param) <= 107):
                return True
    return False


def plain(data: bytes) -> bytes:
    return SGR.sub(b"", data)


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_wants_progress_only_for_many_files_on_a_terminal_outside_ci() -> None:
    tty, pipe = _Tty(), io.StringIO()
    assert wants_progress(PROGRESS_THRESHOLD + 1, tty, environ={})
    assert not wants_progress(PROGRESS_THRESHOLD, tty, environ={})
    assert not wants_progress(10_000, pipe, environ={})
    assert not wants_progress(10_000, tty, environ={"CI": "true"})
    assert not wants_progress(10_000, tty, environ={"CI": "1"})
    assert wants_progress(10_000, tty, environ={"CI": "false"})


def test_file_progress_is_silent_when_not_wanted() -> None:
    pipe = io.StringIO()
    with FileProgress(stream=pipe, environ={}) as progress:
        for done in range(1, 301):
            progress(done, 300)
        assert not progress.shown
    assert pipe.getvalue() == ""


def _many_files(root: Path, count: int) -> None:
    for i in range(count):
        (root / f"m{i:03}.py").write_text(f"x = {i}\n")
    (root / "train.py").write_text("import torch\nx = torch.randn(3)\n")


def _run_on_pty(root: Path, env_changes: dict, stderr_tty: bool = True, stdout_tty: bool = False):
    """Run `reprolint check .` with stderr (and maybe stdout) on a pseudo-terminal."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("CI", "NO_COLOR", "FORCE_COLOR", "GITHUB_ACTIONS", "TERM")}
    env.update({"TERM": "xterm-256color", "COLUMNS": "100"}, **env_changes)
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        # --no-cache: a run answered whole from the cache ends at once and draws no bar.
        [sys.executable, "-m", "reprolint.cli", "check", "--no-cache", "."],
        cwd=root, env=env,
        stdout=slave if stdout_tty else subprocess.PIPE,
        stderr=slave if stderr_tty else subprocess.PIPE,
    )
    os.close(slave)
    terminal = b""
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        terminal += chunk
    out, err = proc.communicate(timeout=120)
    os.close(master)
    return proc.returncode, out or b"", err or b"", terminal


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("many")
    _many_files(root, PROGRESS_THRESHOLD + 20)
    return root


@pytest.mark.slow  # checks many files in a child process on a terminal
def test_bar_on_a_terminal_for_a_long_run(many: Path) -> None:
    status, out, _, terminal = _run_on_pty(many, {})
    assert status == 1
    assert f"/{PROGRESS_THRESHOLD + 21} files".encode() in plain(terminal)
    assert b"Checking" in terminal
    assert b"Checking" not in out  # the report on stdout stays clean
    assert out.decode().splitlines()[-1].startswith("Found 1 problem (")


@pytest.mark.slow  # checks many files in a child process on a terminal
def test_no_bar_in_ci(many: Path) -> None:
    _, _, _, terminal = _run_on_pty(many, {"CI": "true"})
    assert b"Checking" not in terminal


@pytest.mark.slow  # checks many files in a child process on a terminal
def test_no_bar_when_stderr_is_a_pipe(many: Path) -> None:
    _, _, err, _ = _run_on_pty(many, {}, stderr_tty=False)
    assert err == b""


def test_no_bar_for_a_short_run(tmp_path: Path) -> None:
    _many_files(tmp_path, 5)
    _, _, _, terminal = _run_on_pty(tmp_path, {})
    assert b"Checking" not in terminal


@pytest.mark.slow  # checks many files in a child process on a terminal
def test_no_color_removes_colour_from_bar_and_report(many: Path) -> None:
    _, _, _, coloured = _run_on_pty(many, {}, stdout_tty=True)
    assert has_colour(coloured)
    _, _, _, uncoloured = _run_on_pty(many, {"NO_COLOR": "1"}, stdout_tty=True)
    assert b"Checking" in uncoloured and b"Found 1 problem (" in uncoloured
    assert not has_colour(uncoloured)


def test_force_color_colours_the_report_in_a_pipe(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text("import torch\nx = torch.randn(3)\n")
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}

    def run(extra: Optional[dict]) -> bytes:
        return subprocess.run(
            [sys.executable, "-m", "reprolint.cli", "check", "."], cwd=tmp_path,
            env={**env, **(extra or {})}, capture_output=True, timeout=120,
        ).stdout

    assert run(None).startswith(b"train.py:2:5: RPL101 ")  # no escape codes at all
    forced = run({"FORCE_COLOR": "1"})
    assert has_colour(forced)
    assert plain(forced).startswith(b"train.py:2:5: RPL101 ")
