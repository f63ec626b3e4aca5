"""`reprolint variance` end to end on small programs that need no torch (fast): seeds
reach the program, metrics are collected, failures, resume, usage errors, --plot."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Callable

import pytest

from reprolint.harness.cli import main

# Each test runs its program several times in fresh interpreters.
pytestmark = pytest.mark.slow

PY = sys.executable

RANDOM_METRICS = """
import os, random
from reprolint.runtime import metric
if os.environ.get("FAIL_SEED") == os.environ.get("REPROLINT_SEED"):
    raise SystemExit("boom: seed " + os.environ["REPROLINT_SEED"])
metric("accuracy", random.random())
metric("per_class_accuracy", [random.random(), 0.5])
metric("predictions", [random.randrange(2) for _ in range(50)])
metric("words", list({"alpha", "beta", "gamma", "delta", "epsilon", "zeta"}))  # str hash order
"""


class Ran:
    def __init__(self, status: int, out: str, err: str, cwd: Path) -> None:
        self.status, self.out, self.err, self.cwd = status, out, err, cwd

    def json(self) -> dict:
        return json.loads(self.out)

    def roots(self) -> list:
        return sorted((self.cwd / ".reprolint" / "runs").iterdir())

    def __repr__(self) -> str:
        return f"Ran(status={self.status}, out={self.out!r}, err={self.err[-3000:]!r})"


@pytest.fixture
def variance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> Callable[..., Ran]:
    monkeypatch.chdir(tmp_path)
    for name in ("PYTHONHASHSEED", "REPROLINT_SEED", "REPROLINT_MODE", "REPROLINT_RECORD",
                 "REPROLINT_DETERMINISTIC", "FAIL_SEED"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "rand.py").write_text(RANDOM_METRICS)

    def run(*args: str) -> Ran:
        status = main(["variance", *args])
        captured = capsys.readouterr()
        return Ran(status, captured.out, captured.err, tmp_path)

    return run


def test_seeds_vary_and_every_run_is_kept(variance) -> None:
    ran = variance("--runs", "3", "--output-format", "json", "--", PY, "rand.py")
    assert ran.status == 0, ran
    data = ran.json()
    assert [(r["group"], r["seed"]) for r in data["runs"]] == [("seeds", 1), ("seeds", 2), ("seeds", 3)]
    accuracies = [r["metrics"]["accuracy"] for r in data["runs"]]
    assert len(set(accuracies)) == 3
    [group] = data["groups"]
    assert group["no_variance"] is False
    assert [c["name"] for c in group["per_class"]] == ["per_class_accuracy"]
    assert group["per_class"][0]["ranges"]["1"] == 0  # the constant class
    assert [c["name"] for c in group["churn"]] == ["predictions", "words"]
    # PYTHONHASHSEED follows the seed: the set's order changes from seed to seed
    assert len({tuple(r["predictions"]["words"]) for r in data["runs"]}) > 1
    # Each run's seed is the one install() used, as recorded.
    [root] = ran.roots()
    record = json.loads((root / "seeds" / "run-2" / "record.json").read_text())
    assert record["seed"] == 2
    assert json.loads((root / "report.json").read_text())["runs"] == data["runs"]


def test_fixed_seed_gives_no_variance(variance) -> None:
    ran = variance("--runs", "2", "--mode", "fixed", "--seed", "7", "--", PY, "rand.py")
    assert ran.status == 0, ran
    assert ran.out.startswith(
        "NO VARIANCE over 2 runs with a fixed seed (seed 7): loss, metrics and predictions "
        "identical in every run; training time differs by up to "
    ), ran
    assert "  words: all 6 identical in every run\n" in ran.out
    assert "[1/2] fixed run 1 (seed 7)  ✓ " in ran.err


def test_resume_keeps_finished_runs_and_reruns_failed_ones(variance, monkeypatch) -> None:
    monkeypatch.setenv("FAIL_SEED", "2")
    first = variance("--runs", "3", "--", PY, "rand.py")
    assert first.status == 2, first
    assert "1 of 3 runs failed:\n  seeds run 2 (seed 2) exited with code 1 after " in first.out
    assert "    boom: seed 2\n" in first.out
    assert first.out.startswith("VARIANCE over 2 runs with seeds varied (seeds 1–3, 1 failed)")

    monkeypatch.delenv("FAIL_SEED")
    again = variance("--runs", "4", "--resume", "--output-format", "json", "--", PY, "rand.py")
    assert again.status == 0, again
    assert "[1/4] seeds run 1 (seed 1)  ✓ " in again.err and "(kept from the earlier session)" in again.err
    data = again.json()
    assert [r["resumed"] for r in data["runs"]] == [True, False, True, False]
    assert [r["ok"] for r in data["runs"]] == [True] * 4
    assert len(again.roots()) == 1  # the same session, continued
    # a different mode is another session
    other = variance("--runs", "2", "--mode", "fixed", "--resume", "--", PY, "rand.py")
    assert "warning: nothing to resume: no earlier session of this command, mode and seed" in other.out
    assert len(other.roots()) == 2


def test_a_broken_command_stops_after_the_first_run(variance, tmp_path) -> None:
    (tmp_path / "broken.py").write_text("raise SystemExit(3)\n")
    ran = variance("--runs", "5", "--", PY, "broken.py")
    assert ran.status == 2, ran
    assert ran.out.startswith("FAILED: seeds run 1 (seed 1) exited with code 3 after ")
    [root] = ran.roots()
    assert [p.name for p in (root / "seeds").iterdir()] == ["run-1"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--runs", "1", "--", PY, "rand.py"], "--runs must be at least 2"),
        (["--runs", "3"], "give the command to run after --"),
        (["--seed", "-1", "--", PY, "rand.py"], "--seed must be 0 or more"),
        (["--timeout", "0", "--", PY, "rand.py"], "--timeout must be positive"),
    ],
)
def test_usage_errors(variance, args, message) -> None:
    ran = variance(*args)
    assert ran.status == 2
    assert f"reprolint variance: error: {message}" in ran.err


def test_plot_without_matplotlib_fails_before_any_run(variance, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` raises ImportError
    ran = variance("--plot", "v.png", "--", PY, "rand.py")
    assert ran.status == 2
    assert ran.err.strip() == (
        "reprolint variance: error: --plot needs matplotlib, which is not installed: "
        "pip install 'reprolint[plot]'"
    )
    assert not (ran.cwd / ".reprolint").exists()


def test_plot_is_a_png(variance) -> None:
    pytest.importorskip("matplotlib")
    ran = variance("--runs", "2", "--mode", "both", "--plot", "plots/v.png", "--", PY, "rand.py")
    assert ran.status == 0, ran
    png = ran.cwd / "plots" / "v.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "plot: plots/v.png\n" in ran.out


def test_headline_metric_can_be_chosen(variance) -> None:
    ran = variance("--runs", "2", "--metric", "training time (s)", "--", PY, "rand.py")
    assert ran.status == 0, ran
    assert ran.out.startswith("VARIANCE over 2 runs with seeds varied (seeds 1–2): training time (s) differs by up to ")


def test_a_program_that_logs_nothing_is_inconclusive(variance, tmp_path) -> None:
    (tmp_path / "quiet.py").write_text("import random\nprint(random.random())\n")
    ran = variance("--runs", "2", "--mode", "fixed", "--", PY, "quiet.py")
    assert ran.status == 0, ran
    assert ran.out.startswith(
        "INCONCLUSIVE over 2 runs with a fixed seed (seed 0): nothing logged but the wall time "
        "(no optimizer steps or metrics); log with reprolint.runtime.metric()\n"
    ), ran
