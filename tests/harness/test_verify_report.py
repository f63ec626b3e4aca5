"""Exact text of verify's report on a fixed-width console, from synthetic results."""

from __future__ import annotations

import io
import json

from rich.console import Console

from reprolint.harness.compare import compare_process
from reprolint.harness.report import render_json, render_text
from reprolint.harness.traces import parse_trace
from reprolint.harness.verify import RunComparison, RunOutcome, VerifyResult


def lines(steps, init=(1, 2), name="main"):
    out = [{"k": "optimizer", "opt": 0, "names": ["fc.weight", "fc.bias"]},
           {"k": "init", "opt": 0, "d": [[b, b / 4] for b in init]}]
    for i, (loss, row) in enumerate(steps):
        out.append({"k": "step", "n": i + 1, "opt": 0, "loss": loss, "epoch": 0,
                    "d": [[b, b / 4] for b in row]})
    return parse_trace(name, [json.dumps(x) for x in out])


def render(result: VerifyResult) -> str:
    buffer = io.StringIO()
    render_text(result, Console(file=buffer, width=120, color_system=None, highlight=False))
    return buffer.getvalue()


def runs(*seconds: float):
    return [RunOutcome(i + 1, f".reprolint/runs/x/run-{i + 1}", 0, s) for i, s in enumerate(seconds)]


def test_differs_report_names_step_tensors_and_losses() -> None:
    a = lines([(0.5, (3, 4)), (0.25, (5, 6))])
    b = lines([(0.5, (3, 4)), (0.25, (5, 7))])
    comparison = RunComparison(2, processes=[compare_process(a, b)])
    result = VerifyResult(["python", "t.py"], ".reprolint/runs/x", False, runs(2.0, 2.5),
                          [comparison], "differs", 25.0, static_hints=["RPL101 t.py:3"])
    assert render(result) == (
        "NOT REPRODUCIBLE: runs diverge at optimizer step 2 (epoch 0): the parameters after it differ\n"
        "  first differing tensors: fc.bias (Σ 1.5 vs 1.75)\n"
        "  loss per step: identical for all 2 steps\n"
        "  time spread 25.0% (2.0 s, 2.5 s)\n"
        "  likely causes from a static check: RPL101 t.py:3  (reprolint check)\n"
        "records: .reprolint/runs/x/\n"
    )


def test_reproducible_report_counts_what_was_compared() -> None:
    a = lines([(0.5, (3, 4)), (0.25, (5, 6))])
    comparison = RunComparison(2, processes=[compare_process(a, a)])
    result = VerifyResult(["python", "t.py"], ".reprolint/runs/x", True, runs(2.0, 2.0),
                          [comparison], "reproducible", 0.0)
    assert render(result) == (
        "REPRODUCIBLE with record/replay: 2 runs bit-identical (2 steps, 2 tensors, loss); "
        "time spread 0.0% (2.0 s, 2.0 s)\n"
        "records: .reprolint/runs/x/\n"
    )
    data = json.loads(render_json(result))
    assert data["exit_code"] == 0
    assert data["comparisons"][0]["identical"] is True


def test_failed_report_shows_the_stderr_tail() -> None:
    failed = RunOutcome(2, ".reprolint/runs/x/run-2", 1, 0.4, stderr_tail="Traceback\nValueError: bad")
    result = VerifyResult(["python", "t.py"], ".reprolint/runs/x", False,
                          [runs(1.0)[0], failed], [], "failed")
    assert render(result) == (
        "FAILED: run 2 exited with code 1 after 0.4 s\n"
        "  last lines of its stderr (.reprolint/runs/x/run-2/stderr.txt):\n"
        "    Traceback\n"
        "    ValueError: bad\n"
        "records kept under .reprolint/runs/x/\n"
    )
    assert result.exit_code == 2
