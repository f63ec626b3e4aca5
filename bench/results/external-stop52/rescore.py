"""Which judged findings of the stop-52 external sets `check` still reports.

Usage: python bench/results/external-stop52/rescore.py ROUND [TREES]

ROUND is `f` (checked at 16cb3c7, the stop-51 head; trees default /tmp/ext52f/trees),
`g` (checked at 187c7d0, after round f's fixes; default /tmp/ext52g/trees) or `h`
(checked at ea99a78, after round g's first fixes; default /tmp/ext52h/trees); TREES holds
the repositories as <owner>+<name>/ folders exported from the snapshots the `fetch` tool
brings (see bench/realworld/rescore_external.py and README.md for the commits)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "realworld"))
from rescore_external import main_for_rounds  # noqa: E402

HERE = Path(__file__).parent
ROUNDS = {
    "f": ("findings-16cb3c7.json", "/tmp/ext52f/trees"),
    "g": ("findings-187c7d0.json", "/tmp/ext52g/trees"),
    "h": ("findings-ea99a78.json", "/tmp/ext52h/trees"),
}

if __name__ == "__main__":
    sys.exit(main_for_rounds(HERE, ROUNDS, sys.argv[1:]))
