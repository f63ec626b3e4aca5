"""Which judged findings of the stop-57 external set `check` still reports.

Usage: python bench/results/external-stop57/rescore.py v|w [TREES]

Round `v` was checked at 63c4547, `w` at 8fc97ca; TREES (default /tmp/ext57/ROUND/trees)
holds the repositories as <owner>+<name>/ folders exported from the snapshots the `fetch`
tool brings, at the commits README.md names (see bench/realworld/rescore_external.py)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "realworld"))
from rescore_external import main_for_rounds  # noqa: E402

HERE = Path(__file__).parent
ROUNDS = {
    "v": ("findings-63c4547.json", "/tmp/ext57/v/trees"),
    "w": ("findings-8fc97ca.json", "/tmp/ext57/w/trees"),
}

if __name__ == "__main__":
    sys.exit(main_for_rounds(HERE, ROUNDS, sys.argv[1:]))
