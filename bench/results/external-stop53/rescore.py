"""Which judged findings of the stop-53 external sets `check` still reports.

Usage: python bench/results/external-stop53/rescore.py ROUND [TREES]

ROUND is `i` (checked at 382264d, the stop-52 head; trees default /tmp/ext53i/trees),
`j` (checked at 55d00ff, after round i's fixes; default /tmp/ext53j/trees) or `k`
(checked at 8412213, after round j's fixes; default /tmp/ext53k/trees); TREES holds the
repositories as <owner>+<name>/ folders exported from the snapshots the `fetch` tool
brings (see bench/realworld/rescore_external.py and README.md for the commits)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "realworld"))
from rescore_external import main_for_rounds  # noqa: E402

HERE = Path(__file__).parent
ROUNDS = {
    "i": ("findings-382264d.json", "/tmp/ext53i/trees"),
    "j": ("findings-55d00ff.json", "/tmp/ext53j/trees"),
    "k": ("findings-8412213.json", "/tmp/ext53k/trees"),
}

if __name__ == "__main__":
    sys.exit(main_for_rounds(HERE, ROUNDS, sys.argv[1:]))
