"""Which judged findings of the stop-60 external set `check` still reports.

Usage: python bench/results/external-stop60/rescore.py v|u [TREES]

Round `v` was checked at 311f099, `u` at d782ca5; TREES (default /tmp/ext60/ROUND/trees) holds the
repositories as <owner>+<name>/ folders exported from the snapshots the `fetch` tool
brings, at the commits ROUND/commits.json names (see bench/realworld/rescore_external.py)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "realworld"))
from rescore_external import main_for_rounds  # noqa: E402

HERE = Path(__file__).parent
ROUNDS = {
    "v": ("findings-311f099.json", "/tmp/ext60/v/trees"),
    "u": ("findings-d782ca5.json", "/tmp/ext60/u/trees"),
}

if __name__ == "__main__":
    sys.exit(main_for_rounds(HERE, ROUNDS, sys.argv[1:]))
