"""Which judged findings of the stop-56 external set `check` still reports.

Usage: python bench/results/external-stop56/rescore.py t|u [TREES]

Round `t` was checked at 60d0c2a, `u` at fbab892; TREES (default /tmp/ext56/ROUND/trees) holds the
repositories as <owner>+<name>/ folders exported from the snapshots the `fetch` tool
brings, at the commits README.md names (see bench/realworld/rescore_external.py)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "realworld"))
from rescore_external import main_for_rounds  # noqa: E402

HERE = Path(__file__).parent
ROUNDS = {
    "t": ("findings-60d0c2a.json", "/tmp/ext56/t/trees"),
    "u": ("findings-fbab892.json", "/tmp/ext56/u/trees"),
}

if __name__ == "__main__":
    sys.exit(main_for_rounds(HERE, ROUNDS, sys.argv[1:]))
