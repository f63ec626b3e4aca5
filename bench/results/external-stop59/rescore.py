"""Which judged findings of the stop-59 external set `check` still reports.

Usage: python bench/results/external-stop59/rescore.py z|w [TREES]

Round `z` was checked at ba710e4, `w` at f04ef7c; TREES (default /tmp/ext59/ROUND/trees) holds the
repositories as <owner>+<name>/ folders exported from the snapshots the `fetch` tool
brings, at the commits ROUND/commits.json names (see bench/realworld/rescore_external.py)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "realworld"))
from rescore_external import main_for_rounds  # noqa: E402

HERE = Path(__file__).parent
ROUNDS = {
    "z": ("findings-ba710e4.json", "/tmp/ext59/z/trees"),
    "w": ("findings-f04ef7c.json", "/tmp/ext59/w/trees"),
}

if __name__ == "__main__":
    sys.exit(main_for_rounds(HERE, ROUNDS, sys.argv[1:]))
