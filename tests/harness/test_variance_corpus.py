"""`reprolint variance` on the runnable corpus, as a user runs it (two short runs each).

lenet1_mnist.py is unseeded by design: with a seed per run, accuracy, per-class accuracy,
predictions and the loss curve spread. With one fixed seed, a CPU run of it is
deterministic even without the determinism flags: no spread at all.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from reprolint.harness.cli import main

# Each test trains LeNet-1 several times (torch).
pytestmark = pytest.mark.slow
pytest.importorskip("torch")  # the script trains with torch in a child process

LENET1 = Path(__file__).resolve().parents[2] / "corpus" / "train" / "lenet1_mnist.py"
COMMAND = ["--", sys.executable, str(LENET1), "--epochs", "1"]


@pytest.fixture(autouse=True)
def _clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("PYTHONHASHSEED", "REPROLINT_SEED", "REPROLINT_MODE", "REPROLINT_RECORD",
                 "REPROLINT_DETERMINISTIC"):
        monkeypatch.delenv(name, raising=False)


def test_seeds_spread_an_unseeded_script(capsys) -> None:
    status = main(["variance", "--runs", "2", "--output-format", "json", *COMMAND])
    out = capsys.readouterr().out
    assert status == 0, out
    data = json.loads(out)
    [group] = data["groups"]
    values = {v["name"]: v["summary"] for v in group["values"]}
    assert values["accuracy"]["range"] > 0
    assert values["final loss"]["range"] > 0
    assert group["per_class"][0]["name"] == "per_class_accuracy" and group["per_class"][0]["largest"] > 0
    churn = group["churn"][0]
    assert churn["name"] == "predictions" and churn["churn"]["samples"] == 256 and churn["churn"]["max"] > 0
    assert group["loss_curve"]["identical"] is False and group["loss_curve"]["steps"] == 8
    assert group["no_variance"] is False
    assert [len(r["losses"]) for r in data["runs"]] == [8, 8]


def test_a_fixed_seed_leaves_no_spread_on_cpu(capsys) -> None:
    plot = ["--plot", "lenet1.png"] if importlib.util.find_spec("matplotlib") else []
    status = main(["variance", "--runs", "2", "--mode", "fixed", *plot, *COMMAND])
    out = capsys.readouterr().out
    assert status == 0, out
    lines = out.splitlines()
    assert lines[0].startswith(
        "NO VARIANCE over 2 runs with a fixed seed (seed 0): loss, metrics and predictions "
        "identical in every run; training time differs by up to "
    ), out
    assert lines[1].split() == ["min", "max", "largest", "diff", "mean", "std", "std", "90%", "CI"]
    assert lines[2].startswith("  final loss ") and lines[2].split()[4] == "0"
    assert lines[3].startswith("  accuracy ") and lines[3].split()[3] == "0"
    assert "  per_class_accuracy: identical in every run (10 classes)" in lines
    assert "  predictions: all 256 identical in every run" in lines
    assert "  loss per step: identical in every run (8 steps)" in lines
    if plot:
        assert Path("lenet1.png").read_bytes()[:4] == b"\x89PNG"
