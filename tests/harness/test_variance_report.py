"""`reprolint variance`'s analysis and report on synthetic runs: exact text on a
fixed-width console, JSON with every run's raw values, the seeds-vs-fixed tests."""

from __future__ import annotations

import io
import json
import sys

import pytest
from rich.console import Console

from reprolint.harness.variance import RunRecord, VarianceResult, analyse, plan
from reprolint.harness.variance_report import render_json, render_text


def run(group: str, index: int, seed: int, seconds: float, acc: float, losses, per_class,
        preds, ok: bool = True) -> RunRecord:
    return RunRecord(
        group, index, seed, f".reprolint/runs/x/{group}/run-{index}", 0 if ok else 1, seconds,
        failure="" if ok else f"exited with code 1 after {seconds:.1f} s",
        stderr_tail="" if ok else "Traceback (most recent call last):\nValueError: boom",
        process="main", losses=list(losses), metrics={"accuracy": acc},
        per_class={"per_class_accuracy": {str(i): v for i, v in enumerate(per_class)}},
        predictions={"predictions": list(preds)},
    )


def result_of(*runs: RunRecord, mode: str = "seeds", verdict: str = "measured") -> VarianceResult:
    result = VarianceResult(["python", "t.py"], mode, 0, False, ".reprolint/runs/x", "",
                            runs=list(runs), planned=len(runs), verdict=verdict)
    analyse(result)
    return result


def render(result: VarianceResult) -> str:
    buffer = io.StringIO()
    render_text(result, Console(file=buffer, width=80, color_system=None, highlight=False, soft_wrap=True))
    return buffer.getvalue()


SEEDS = [
    run("seeds", 1, 1, 10.0, 0.90, [2.0, 1.0], [1.0, 0.8], [0, 1, 1, 0]),
    run("seeds", 2, 2, 12.0, 0.80, [2.0, 1.5], [1.0, 0.6], [0, 1, 0, 0]),
    run("seeds", 3, 3, 11.0, 0.85, [2.5, 1.25], [0.9, 0.8], [0, 1, 1, 1]),
]
FIXED = [
    run("fixed", k, 0, 10.0 + k, 0.75, [2.0, 1.75], [0.5, 1.0], [1, 1, 1, 1]) for k in (1, 2, 3)
]


def test_seeds_report() -> None:
    # std 90% CI of accuracy: 0.05 · sqrt(2 / χ²) with χ²(0.95; 2) = 5.991465, χ²(0.05; 2) = 0.102587
    # churn: run pairs differ on 1, 1 and 2 of 4 samples; samples 2 and 3 change at least once
    assert render(result_of(*SEEDS)) == (
        "VARIANCE over 3 runs with seeds varied (seeds 1–3): accuracy differs by up to 0.1 (0.8 to 0.9)\n"
        "                     min  max  largest diff  mean   std        std 90% CI\n"
        "  final loss           1  1.5           0.5  1.25  0.25    0.14444–1.1038\n"
        "  accuracy           0.8  0.9           0.1  0.85  0.05  0.028888–0.22077\n"
        "  training time (s)   10   12     2 (20.0%)    11     1    0.57776–4.4154\n"
        "  per_class_accuracy: largest difference 0.2 (class 1)\n"
        "  predictions: 33.3% change between two runs on average (at most 50.0%); 50.0% of 4 "
        "change in at least one run\n"
        "  loss per step: runs differ from step 1; largest spread 0.5 at step 1 of 2\n"
        "records: .reprolint/runs/x/\n"
    )


def test_fixed_report_without_variance() -> None:
    text = render(result_of(*FIXED, mode="fixed"))
    assert text.splitlines()[0] == (
        "NO VARIANCE over 3 runs with a fixed seed (seed 0): loss, metrics and predictions "
        "identical in every run; training time differs by up to 18.2%"
    )
    assert "  per_class_accuracy: identical in every run (2 classes)\n" in text
    assert "  predictions: all 4 identical in every run\n" in text
    assert "  loss per step: identical in every run (2 steps)\n" in text


def test_both_compares_the_groups() -> None:
    pytest.importorskip("scipy")
    result = result_of(*[r for pair in zip(SEEDS, FIXED) for r in pair], mode="both")
    text = render(result)
    assert text.splitlines()[0] == (
        "VARIANCE: with seeds varied, accuracy differs by up to 0.1 (0.8 to 0.9); with a fixed "
        "seed, loss, metrics and predictions identical in every run; training time differs by "
        "up to 18.2%"
    )
    assert "3 runs with seeds varied (seeds 1–3):\n" in text
    assert "3 runs with a fixed seed (seed 0):\n" in text
    tail = text[text.index("seeds vs fixed:"):].splitlines()
    assert tail[1].split() == ["Levene", "W", "p", "Mann-Whitney", "U", "p", "Cohen's", "d"]
    accuracy = next(line for line in tail if line.startswith("  accuracy"))
    # seeds 0.9/0.8/0.85 against 0.75 ×3: every seeds value larger, U = 9, d = 0.1 / sqrt(0.005 / 4)
    assert accuracy.split()[3] == "9"
    assert float(accuracy.split()[-1]) == pytest.approx(0.1 / (0.0025 ** 0.5 * (2 / 4) ** 0.5), rel=1e-4)


def test_both_without_scipy_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "scipy", None)
    result = result_of(*SEEDS, *FIXED, mode="both")
    assert result.tests_unavailable is not None
    text = render(result)
    assert text[text.index("seeds vs fixed:"):].splitlines()[:5] == [
        "seeds vs fixed:",
        "                     Cohen's d",
        "  final loss           -2.8284",
        "  accuracy              2.8284",  # 0.1 / sqrt((2 · 0.05² + 0) / 4)
        "  training time (s)         -1",
    ]
    assert (
        "  note: Levene's test and the Mann-Whitney U test need scipy, which is not installed: "
        "pip install 'reprolint[stats]'\n"
    ) in text
    data = json.loads(render_json(result))
    assert data["tests_unavailable"].startswith("Levene's test and the Mann-Whitney U test need scipy")
    assert data["comparisons"][1]["tests"]["levene_p"] is None
    assert data["comparisons"][1]["tests"]["cohens_d"] is not None


def test_json_has_every_runs_raw_values() -> None:
    data = json.loads(render_json(result_of(*SEEDS)))
    assert [r["seed"] for r in data["runs"]] == [1, 2, 3]
    first = data["runs"][0]
    assert first["metrics"] == {"accuracy": 0.9}
    assert first["losses"] == [2.0, 1.0] and first["final_loss"] == 1.0
    assert first["per_class"] == {"per_class_accuracy": {"0": 1.0, "1": 0.8}}
    assert first["predictions"] == {"predictions": [0, 1, 1, 0]}
    assert first["seconds"] == 10.0 and first["ok"] is True
    [group] = data["groups"]
    accuracy = next(v for v in group["values"] if v["name"] == "accuracy")
    assert accuracy["values"] == [0.9, 0.8, 0.85]
    assert accuracy["summary"]["range"] == pytest.approx(0.1)
    assert group["no_variance"] is False
    assert data["exit_code"] == 0


def test_a_failed_run_is_reported_and_left_out() -> None:
    failed = run("seeds", 3, 3, 1.0, 0.1, [9.0], [0.0, 0.0], [0, 0, 0, 0], ok=False)
    result = result_of(SEEDS[0], SEEDS[1], failed, verdict="failed")
    text = render(result)
    assert text.splitlines()[:5] == [
        "VARIANCE over 2 runs with seeds varied (seeds 1–3, 1 failed): accuracy differs by up "
        "to 0.1 (0.8 to 0.9)",
        "1 of 3 runs failed:",
        "  seeds run 3 (seed 3) exited with code 1 after 1.0 s",
        "  last lines of its stderr (.reprolint/runs/x/seeds/run-3/stderr.txt):",
        "    Traceback (most recent call last):",
    ]
    assert result.exit_code == 2


def test_unknown_headline_metric_falls_back_with_a_warning() -> None:
    result = VarianceResult(["python", "t.py"], "seeds", 0, False, ".reprolint/runs/x", "top5",
                            runs=list(SEEDS), planned=3)
    analyse(result)
    assert result.headline == "accuracy"
    assert result.warnings == [
        "no value named 'top5' was logged; known: final loss, accuracy, training time (s)"
    ]


def test_plan() -> None:
    assert plan("seeds", 3, 0) == [("seeds", 1, 1), ("seeds", 2, 2), ("seeds", 3, 3)]
    assert plan("fixed", 2, 7) == [("fixed", 1, 7), ("fixed", 2, 7)]
    # both: alternating, so that a machine's drift weighs on both groups alike
    assert plan("both", 2, 10) == [("seeds", 1, 11), ("fixed", 1, 10), ("seeds", 2, 12), ("fixed", 2, 10)]
