"""End to end: runnable corpus scripts, fixed by `reprolint fix --write --unsafe-fixes`,
train to bit-identical weights in two runs on CPU (`reprolint verify` says REPRODUCIBLE)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from reprolint.cli import main as reprolint_main
from reprolint.harness.cli import main as verify_main

TRAIN = Path(__file__).resolve().parent.parent / "corpus" / "train"

pytest.importorskip("torch")  # the corpus scripts train with torch in child processes


@pytest.mark.slow  # trains each fixed corpus script twice under verify
@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("numpy_augment.py", "reprolint.runtime.install(seed=0)"),
        ("python_random_shuffle.py", "reprolint.runtime.install(seed=0)"),
        # RPL401: the vocabulary's word ids no longer follow PYTHONHASHSEED.
        ("hash_vocab.py", "enumerate(sorted(set(w for s in sentences for w in s)))"),
        # RPL402: shards are read in name order, not in file-system order.
        ("unsorted_listing.py", "for name in sorted(os.listdir(folder)):"),
    ],
)
def test_fixed_script_is_reproducible(name: str, change: str, tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    for var in ("REPROLINT_SEED", "REPROLINT_MODE", "REPROLINT_RECORD"):
        monkeypatch.delenv(var, raising=False)
    shutil.copy(TRAIN / name, tmp_path / name)
    assert reprolint_main(["fix", "--write", "--unsafe-fixes", name]) == 0
    fixed = (tmp_path / name).read_text()
    assert change in fixed
    capsys.readouterr()
    status = verify_main(["verify", "--", sys.executable, name, "--epochs", "1"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.startswith("REPRODUCIBLE: 2 runs bit-identical"), out
