"""End to end on the runnable corpus scripts that need torchvision or gymnasium: as written
`check` reports their unseeded draws; after `reprolint fix --write --unsafe-fixes` two
runs are bit-identical (`reprolint verify` says REPRODUCIBLE)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from reprolint.cli import main as reprolint_main
from reprolint.harness.cli import main as verify_main

TRAIN = Path(__file__).resolve().parents[2] / "corpus" / "train"

pytestmark = pytest.mark.slow  # trains each script twice under verify


@pytest.mark.parametrize(
    ("name", "library", "args"),
    [
        # The environment's own generator (env.reset() without seed=) and torch's.
        ("gym_cartpole_reinforce.py", "gymnasium", ["--episodes", "3"]),
        # torchvision transforms (torch's generator) and v1 RandomChoice (random's).
        ("torchvision_augment.py", "torchvision", ["--epochs", "1"]),
    ],
)
def test_fix_makes_the_script_bit_identical(
    name: str, library: str, args: list, tmp_path: Path, monkeypatch, capsys
) -> None:
    pytest.importorskip("torch")
    pytest.importorskip(library)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    for var in ("REPROLINT_SEED", "REPROLINT_MODE", "REPROLINT_RECORD"):
        monkeypatch.delenv(var, raising=False)
    shutil.copy(TRAIN / name, tmp_path / name)
    command = ["verify", "--", sys.executable, name, *args]

    # As written: check points at the unseeded draws (two verify runs of the script as
    # written differ; measured by hand, left out here to keep CI short).
    assert reprolint_main(["check", "--no-cache", name]) == 1
    written = capsys.readouterr().out
    assert "RPL101" in written, written

    assert reprolint_main(["fix", "--write", "--unsafe-fixes", name]) == 0
    assert "reprolint.runtime.install(seed=0)" in (tmp_path / name).read_text()
    capsys.readouterr()
    status = verify_main(command)
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.startswith("REPRODUCIBLE: 2 runs bit-identical"), out
