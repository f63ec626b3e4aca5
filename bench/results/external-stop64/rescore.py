"""Which judged findings of the stop-64 external set `check` still reports.

Usage: python bench/results/external-stop64/rescore.py i|h|g|f [TREES]

Rounds i and h were checked at 354325b, g at 8d67bbe, f at 93d61e2; TREES (default
/tmp/extq/ROUND/trees) holds the repositories as <owner>+<name>/ folders exported from the
snapshots the `fetch` tool brings, at the commits ROUND/commits.json names (see
bench/realworld/rescore_external.py)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "realworld"))
from rescore_external import main_for_rounds  # noqa: E402

HERE = Path(__file__).parent
ROUNDS = {
    "i": ("findings-354325b.json", "/tmp/extq/i/trees"),
    "h": ("findings-354325b.json", "/tmp/extq/h/trees"),
    "g": ("findings-8d67bbe.json", "/tmp/extq/g/trees"),
    "f": ("findings-93d61e2.json", "/tmp/extq/f/trees"),
}

if __name__ == "__main__":
    sys.exit(main_for_rounds(HERE, ROUNDS, sys.argv[1:]))
