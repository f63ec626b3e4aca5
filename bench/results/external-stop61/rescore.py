"""Which judged findings of the stop-61 external set `check` still reports.

Usage: python bench/results/external-stop61/rescore.py s|r [TREES]

Round `s` was checked at 861bf37, `r` at e06667a; TREES (default /tmp/ext61/ROUND/trees) holds the
repositories as <owner>+<name>/ folders exported from the snapshots the `fetch` tool
brings, at the commits ROUND/commits.json names (see bench/realworld/rescore_external.py)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "realworld"))
from rescore_external import main_for_rounds  # noqa: E402

HERE = Path(__file__).parent
ROUNDS = {
    "s": ("findings-861bf37.json", "/tmp/ext61/s/trees"),
    "r": ("findings-e06667a.json", "/tmp/ext61/r/trees"),
}

if __name__ == "__main__":
    sys.exit(main_for_rounds(HERE, ROUNDS, sys.argv[1:]))
