"""Shared helpers: run the CLI in-process and build small projects on disk."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Optional

import pytest

from reprolint.cli import main

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "corpus"


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
