"""verify compares what runs printed without holding it (issue 30, item 10): a command
printing hundreds of megabytes per run took verify to gigabytes. The comparison streams
both outputs, a line at most 1 MiB at a time (bench/verify_memory.py has the figure on
a 300 MB-output command).
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from reprolint.harness.output import compare_outputs

MB = 1 << 20


def _write(path: Path, lines: int, last: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        line = "loss 0.25 accuracy 0.5 " + "x" * 76 + "\n"
        for _ in range(lines):
            handle.write(line)
        handle.write(last)


@pytest.mark.parametrize("shape", ["many-lines", "one-line"])
def test_a_large_output_is_compared_in_bounded_memory(tmp_path: Path, shape: str) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    if shape == "many-lines":
        _write(a, 400_000, "final 1\n")
        _write(b, 400_000, "final 2\n")
        expected_line = 400_001
    else:
        for path, end in ((a, "1"), (b, "2")):
            path.write_text("y" * (40 * MB) + end + "\n")
        expected_line = 1
    tracemalloc.start()
    try:
        result = compare_outputs(a, b)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert not result.equal and result.first_line == expected_line, result
    assert peak < 24 * MB, f"peak {peak / MB:.0f} MB for {a.stat().st_size / MB:.0f} MB outputs"
