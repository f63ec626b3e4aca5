"""Program output compared with timing-like values set aside (`harness/output.py`)."""

from __future__ import annotations

import pytest

from reprolint.harness.output import compare_lines, mask_timing


@pytest.mark.parametrize(
    "a, b",
    [
        ("| ms/batch 810.43 | loss 7.84 |", "| ms/batch 512.65 | loss 7.84 |"),
        ("| ms/batch 810.43 | loss 7.84 |", "| ms/batch  12.65 | loss 7.84 |"),
        ("| end of epoch 1 | time: 12.34s | valid loss 5.60", "| end of epoch 1 | time:  9.01s | valid loss 5.60"),
        ("100%|###| 10/10 [00:01<00:00,  5.23it/s]", "100%|###| 10/10 [00:02<00:00,  4.98it/s]"),
        ("iter 10: loss 2.3141, time 31.52ms", "iter 10: loss 2.3141, time 29.07ms"),
        ("epoch 3 took 4.2 seconds", "epoch 3 took 3.9 seconds"),
        ("2026-12-01 12:01:15,123 INFO loss 1.0", "2026-12-02 08:11:05,001 INFO loss 1.0"),
        ("elapsed=12.5 acc 0.91", "elapsed=9.75 acc 0.91"),
        ("throughput 1234.5 samples/s", "throughput 999.1 samples/s"),
    ],
)
def test_timing_values_are_set_aside(a: str, b: str) -> None:
    assert mask_timing(a) == mask_timing(b)
    result = compare_lines(["start", a], ["start", b])
    assert result.equal and result.timing_differs and result.timing_line == 2


@pytest.mark.parametrize(
    "a, b",
    [
        ("| ms/batch 810.43 | loss 7.84 |", "| ms/batch 810.43 | loss 7.85 |"),
        ("step 3 loss 0.5", "step 4 loss 0.5"),
        ("accuracy 0.91 (3 steps)", "accuracy 0.92 (3 steps)"),
        ("lr 20.00 | ppl 2540.12", "lr 20.00 | ppl 2540.13"),
        ("Accuracy: 9800/10000 (98%)", "Accuracy: 9801/10000 (98%)"),
    ],
)
def test_results_next_to_timing_still_count(a: str, b: str) -> None:
    result = compare_lines([a], [b])
    assert not result.equal and result.first_line == 1
    assert (result.line_a, result.line_b) == (a, b)


def test_a_huge_differing_line_is_shown_cut_around_the_difference() -> None:
    a = "x" * 1_000_000 + "A" + "y" * 10
    b = "x" * 1_000_000 + "B" + "y" * 10
    result = compare_lines([a], [b])
    assert not result.equal
    assert len(result.line_a) < 300 and len(result.line_b) < 300
    assert "A" in result.line_a and "B" in result.line_b
    assert result.line_a.startswith("…") and "1,000,011 characters" in result.line_a


def test_a_missing_line_is_shown_as_end() -> None:
    result = compare_lines(["a", "b"], ["a"])
    assert (result.equal, result.first_line, result.line_a, result.line_b) == (False, 2, "b", "<end>")
