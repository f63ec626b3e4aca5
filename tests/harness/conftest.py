"""Run `reprolint verify` in-process, in a temporary working directory."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from typing import Callable

import pytest

from reprolint.harness.cli import main

REPO = Path(__file__).resolve().parents[2]
TRAIN = REPO / "corpus" / "train"
PY = sys.executable


class Verified:
    def __init__(self, status: int, out: str, err: str, cwd: Path) -> None:
        self.status = status
        self.out = out
        self.err = err
        self.cwd = cwd

    def json(self) -> dict:
        return json.loads(self.out)

    def run_root(self) -> Path:
        [root] = list((self.cwd / ".reprolint" / "runs").iterdir())
        return root

    def __repr__(self) -> str:
        return f"Verified(status={self.status}, out={self.out!r}, err={self.err[-3000:]!r})"

    def __str__(self) -> str:
        """The whole report and every run's stderr, for an assertion message.

        pytest shortens a non-string message to a few hundred characters; a failed run
        needs its stderr shown in full to be understood after the temporary folder is gone.
        """
        parts = [f"status {self.status}", "stdout:", self.out, "stderr:", self.err[-3000:]]
        for log in sorted((self.cwd / ".reprolint" / "runs").glob("*/run-*/stderr.txt")):
            parts += [f"{log.relative_to(self.cwd)}:", log.read_text(errors="replace")[-4000:]]
        return "\n".join(parts)


@pytest.fixture
def verify(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> Callable[..., Verified]:
    """`verify("--replay", "--", PY, "x.py")` -> exit status and output."""
    monkeypatch.chdir(tmp_path)
    # verify as written must see the user's environment: no pinned hash seed here.
    monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    for name in ("REPROLINT_SEED", "REPROLINT_MODE", "REPROLINT_RECORD"):
        monkeypatch.delenv(name, raising=False)

    def run(*args: str) -> Verified:
        status = main(["verify", *args])
        captured = capsys.readouterr()
        return Verified(status, captured.out, captured.err, tmp_path)

    return run


@pytest.fixture
def script(tmp_path: Path) -> Callable[[str, str], str]:
    def write(name: str, source: str) -> str:
        path = tmp_path / name
        path.write_text(source)
        return str(path)

    return write



def _default_signal_handling() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


@pytest.fixture
def default_signals() -> Callable[[], None]:
    """A ``preexec_fn`` giving a child the default action for SIGINT and SIGHUP. A suite
    started in the background (``cmd &`` ignores SIGINT) or under ``nohup`` (ignores
    SIGHUP) passes those dispositions on, and Python keeps an ignored SIGINT ignored: a
    signal a test sends to reprolint would never arrive."""
    return _default_signal_handling
