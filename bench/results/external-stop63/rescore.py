"""Which judged findings of the stop-63 external set `check` still reports.

Usage: python bench/results/external-stop63/rescore.py m|l|k|j [TREES]

Rounds `m` and `l` were checked at 7d5096c, `k` and `j` at a848485; TREES (default
/tmp/extq/ROUND/trees) holds the repositories as <owner>+<name>/ folders exported from
the snapshots the `fetch` tool brings, at the commits ROUND/commits.json names (see
bench/realworld/rescore_external.py)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "realworld"))
from rescore_external import main_for_rounds  # noqa: E402

HERE = Path(__file__).parent
ROUNDS = {
    "m": ("findings-7d5096c.json", "/tmp/extq/m/trees"),
    "l": ("findings-7d5096c.json", "/tmp/extq/l/trees"),
    "k": ("findings-a848485.json", "/tmp/extq/k/trees"),
    "j": ("findings-a848485.json", "/tmp/extq/j/trees"),
}

if __name__ == "__main__":
    sys.exit(main_for_rounds(HERE, ROUNDS, sys.argv[1:]))
