"""Mapping findings to the lines of a notebook file is linear (issue 30, item 11): each
source line's file line was counted from the start of the file, so a notebook of
100,000 cells took over 600 s in github and SARIF output (bench/notebook_cells.py has
the figures per format). Counted here: the characters scanned, not the time.
"""

from __future__ import annotations

import json
from typing import Any

from reprolint.notebooks import json_lines


class CountingText(str):
    """A str that adds up how many characters ``count`` scans."""

    scanned = 0

    def count(self, sub: Any, start: Any = None, end: Any = None) -> int:  # type: ignore[override]
        begin = 0 if start is None else start
        stop = len(self) if end is None else end
        CountingText.scanned += max(0, stop - begin)
        return super().count(sub, start, end)


def _notebook(cells: int) -> str:
    return json.dumps({
        "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                   "source": [f"x = {i}\n", "y = x\n"] if i % 3 else f"z = {i}\n"} for i in range(cells)]
        + [{"cell_type": "markdown", "metadata": {}, "source": ["# notes\n"]}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
    }, indent=1)


def test_file_lines_are_found_in_one_pass() -> None:
    text = _notebook(2_000)
    CountingText.scanned = 0
    lines = json_lines(CountingText(text))
    assert CountingText.scanned <= 2 * len(text), f"{CountingText.scanned:,} characters scanned for {len(text):,}"
    # and they are the right lines: where each source line sits in the file
    file_lines = text.split("\n")
    assert '"x = 1\\n"' in file_lines[lines[2][0] - 1] and '"y = x\\n"' in file_lines[lines[2][1] - 1]
    assert '"z = 0\\n"' in file_lines[lines[1][0] - 1] and '"z = 1998\\n"' in file_lines[lines[1999][0] - 1]
    assert len(lines) == 2_000
