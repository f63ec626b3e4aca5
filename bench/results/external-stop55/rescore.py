"""Which judged findings of the stop-55 external set `check` still reports.

Usage: python bench/results/external-stop55/rescore.py q|r|s [TREES]

Round `q` was checked at 031e4c6, `r` at 2234852, `s` at 1629b4c; TREES (default /tmp/ext55/ROUND/trees) holds the
repositories as <owner>+<name>/ folders exported from the snapshots the `fetch` tool
brings, at the commits README.md names (see bench/realworld/rescore_external.py)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "realworld"))
from rescore_external import main_for_rounds  # noqa: E402

HERE = Path(__file__).parent
ROUNDS = {
    "q": ("findings-031e4c6.json", "/tmp/ext55/q/trees"),
    "r": ("findings-2234852.json", "/tmp/ext55/r/trees"),
    "s": ("findings-1629b4c.json", "/tmp/ext55/s/trees"),
}

if __name__ == "__main__":
    sys.exit(main_for_rounds(HERE, ROUNDS, sys.argv[1:]))
