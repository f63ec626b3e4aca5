"""Which judged findings of the stop-62 external set `check` still reports.

Usage: python bench/results/external-stop62/rescore.py q|p|o|n [TREES]

Rounds `q` and `p` were checked at 3556f0e, `o` at d8c7b9a, `n` at 770b477; TREES (default /tmp/extq/ROUND/trees) holds the
repositories as <owner>+<name>/ folders exported from the snapshots the `fetch` tool
brings, at the commits ROUND/commits.json names (see bench/realworld/rescore_external.py)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "realworld"))
from rescore_external import main_for_rounds  # noqa: E402

HERE = Path(__file__).parent
ROUNDS = {
    "q": ("findings-3556f0e.json", "/tmp/extq/q/trees"),
    "p": ("findings-3556f0e.json", "/tmp/extq/p/trees"),
    "o": ("findings-d8c7b9a.json", "/tmp/extq/o/trees"),
    "n": ("findings-770b477.json", "/tmp/extq/n/trees"),
}

if __name__ == "__main__":
    sys.exit(main_for_rounds(HERE, ROUNDS, sys.argv[1:]))
