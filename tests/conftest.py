"""Shared helpers: run the CLI in-process and build small projects on disk."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Optional

import pytest
from hypothesis import settings

from reprolint.cli import main

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "corpus"

# Hypothesis profiles. "ci" makes the property tests reproducible: derandomized (the
# examples come from a fixed seed, the same on every machine), no example database
# (nothing carried over from an earlier run: a clean checkout and a warm one draw the
# same examples), and the example budgets written on each test. "dev" (the default
# locally) explores: random examples, failures remembered in .hypothesis/ and replayed
# first. A failure found while exploring is added to its test as an explicit @example.
# The profile is HYPOTHESIS_PROFILE when set (.ci/run sets "ci"), else "ci" when CI is
# set (GitHub Actions and most CI services set CI=true), else "dev".
settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


class CliResult:
    def __init__(self, status: int, out: str, err: str) -> None:
        self.status = status
        self.out = out
        self.err = err

    def __repr__(self) -> str:  # shown by pytest on failure
        return f"CliResult(status={self.status}, out={self.out!r}, err={self.err!r})"


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """Run `reprolint ARGS` in-process; returns exit status and captured output."""

    def run(*args: str, cwd: Optional[Path] = None) -> CliResult:
        old = os.getcwd()
        if cwd is not None:
            os.chdir(cwd)
        try:
            try:
                status = main(list(args))
            except SystemExit as exc:  # argparse usage errors
                status = int(exc.code or 0)
        finally:
            os.chdir(old)
        captured = capsys.readouterr()
        return CliResult(status, captured.out, captured.err)

    return run


@pytest.fixture
def project(tmp_path: Path) -> Callable[..., Path]:
    """Write {relative path: source} under a temporary folder and return the folder."""

    def write(files: dict[str, str]) -> Path:
        for rel, source in files.items():
            target = tmp_path / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(source, encoding="utf-8")
        return tmp_path

    return write
