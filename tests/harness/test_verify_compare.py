"""The comparison logic of verify, on synthetic traces (no program is run)."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from reprolint.harness.compare import compare_process, compare_values, same_value
from reprolint.harness.traces import parse_trace

NAMES = ["fc1.weight", "fc1.bias", "fc2.weight"]


def trace(
    losses: List[Optional[float]],
    digest_rows: Optional[List[List[int]]] = None,
    initial: Optional[List[int]] = None,
    epochs: Optional[List[int]] = None,
    metrics: Optional[List[Dict[str, Any]]] = None,
) -> List[str]:
    """JSON lines as the runtime writes them; digests are given as bit sums."""
    lines = [{"k": "process", "name": "main"},
             {"k": "optimizer", "opt": 0, "class": "SGD", "names": NAMES, "shapes": []},
             {"k": "init", "opt": 0, "d": [[b, float(b)] for b in (initial or [1, 2, 3])]}]
    for i, loss in enumerate(losses):
        row = digest_rows[i] if digest_rows else [10 + i, 20 + i, 30 + i]
        rec: Dict[str, Any] = {"k": "step", "n": i + 1, "opt": 0, "loss": loss,
                               "d": [[b, float(b)] for b in row]}
        if epochs:
            rec["epoch"] = epochs[i]
        lines.append(rec)
    for m in metrics or []:
        lines.append({"k": "metric", **m})
    return [json.dumps(x) for x in lines]


def compare(a: List[str], b: List[str]):
    return compare_process(parse_trace("main", a), parse_trace("main", b))


def test_identical_traces_are_identical() -> None:
    t = trace([0.5, 0.4, float("nan")])
    result = compare(t, list(t))
    assert result.identical
    assert result.divergence is None
    assert result.loss.differing == 0 and result.loss.steps == 3
    assert result.tensors == 3


def test_different_initial_parameters_diverge_at_step_0() -> None:
    result = compare(trace([0.5], initial=[1, 2, 3]), trace([0.5], initial=[1, 9, 3]))
    assert result.divergence is not None
    assert result.divergence.step == 0
    assert result.divergence.what == "initial parameters"
    assert [t.name for t in result.divergence.tensors] == ["fc1.bias"]


def test_first_diverging_step_and_tensors() -> None:
    rows_a = [[10, 20, 30], [11, 21, 31], [12, 22, 32]]
    rows_b = [[10, 20, 30], [11, 99, 98], [12, 22, 32]]
    result = compare(trace([0.5, 0.4, 0.3], rows_a), trace([0.5, 0.4, 0.3], rows_b))
    div = result.divergence
    assert div is not None and div.step == 2 and div.what == "parameters"
    assert [t.name for t in div.tensors] == ["fc1.bias", "fc2.weight"]
    assert (div.tensors[0].sum_a, div.tensors[0].sum_b) == (21.0, 99.0)
    assert not result.identical


def test_loss_differing_before_the_parameters_is_reported_as_loss() -> None:
    result = compare(trace([0.5, 0.4, 0.3]), trace([0.5, 0.41, 0.3]))
    assert result.divergence is not None
    assert (result.divergence.step, result.divergence.what) == (2, "loss")
    assert (result.loss.identical_prefix, result.loss.differing) == (1, 1)
    assert (result.loss.first_a, result.loss.first_b) == (0.4, 0.41)


def test_a_one_ulp_loss_difference_is_a_difference() -> None:
    import math

    result = compare(trace([0.5]), trace([math.nextafter(0.5, 1.0)]))
    assert result.divergence is not None and result.divergence.what == "loss"


def test_per_epoch_loss() -> None:
    result = compare(
        trace([0.5, 0.4, 0.3, 0.2], epochs=[0, 0, 1, 1]),
        trace([0.5, 0.4, 0.3, 0.25], epochs=[0, 0, 1, 1]),
    )
    assert [(e.epoch, e.equal) for e in result.loss.epochs] == [(0, True), (1, False)]
    assert result.loss.epochs[1].mean_b == (0.3 + 0.25) / 2


def test_a_run_that_stops_early_diverges() -> None:
    result = compare(trace([0.5, 0.4, 0.3]), trace([0.5, 0.4]))
    assert result.divergence is not None
    assert (result.divergence.step, result.divergence.what) == (3, "step count")
    assert (result.steps_a, result.steps_b) == (3, 2)


def test_metrics_overall_per_class_and_predictions() -> None:
    a = [{"name": "accuracy", "value": 0.9}, {"name": "per_class", "value": [1.0, 0.5, 0.25]},
         {"name": "predictions", "value": [1, 2, 3, 4]}]
    b = [{"name": "accuracy", "value": 0.875}, {"name": "per_class", "value": [1.0, 0.5, 0.5]},
         {"name": "predictions", "value": [1, 2, 0, 0]}]
    result = compare(trace([0.5], metrics=a), trace([0.5], metrics=b))
    summaries = {m.name: (m.equal, m.summary) for m in result.metrics}
    assert summaries == {
        "accuracy": (False, "0.9 vs 0.875"),
        "per_class": (False, "1 of 3 differ"),
        "predictions": (False, "2 of 4 differ"),
    }
    assert result.divergence is None and not result.identical


def test_metric_series_reports_the_first_differing_logging() -> None:
    a = [("acc", 0.5), ("acc", 0.6), ("acc", 0.7)]
    b = [("acc", 0.5), ("acc", 0.65), ("acc", 0.7)]
    [result] = compare_values(a, b)
    assert not result.equal
    assert result.summary == "0.6 vs 0.65 (logging 2 of 3)"


def test_dict_metrics_name_the_differing_keys() -> None:
    [result] = compare_values([("per_class", {"cat": 1.0, "dog": 0.5})],
                              [("per_class", {"cat": 1.0, "dog": 0.75})])
    assert result.summary == "1 of 2 differ (dog)"


def test_exact_value_equality() -> None:
    assert same_value([1.0, float("nan")], [1.0, float("nan")])
    assert not same_value(0.1 + 0.2, 0.3)
    assert not same_value(1, True)
    assert same_value({"a": [1, 2]}, {"a": [1, 2]})


def test_a_truncated_last_line_is_ignored() -> None:
    lines = trace([0.5, 0.4])
    lines[-1] = lines[-1][:10]
    parsed = parse_trace("main", lines)
    assert len(parsed.steps) == 1
