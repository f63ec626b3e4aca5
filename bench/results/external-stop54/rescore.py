"""Which judged findings of the stop-54 external sets `check` still reports.

Usage: python bench/results/external-stop54/rescore.py ROUND [TREES]

ROUND is `l` (checked at 01326b3, the stop-53 head's findings), `m` (at eaddc38),
`n` (at e2d2178), `o` (at 53a2f84) or `p` (at d6acfab, the last change to `check` but
the timm seeder); TREES (default /tmp/ext54/ROUND/trees) holds the
repositories as <owner>+<name>/ folders exported from the snapshots the `fetch` tool
brings (see bench/realworld/rescore_external.py and README.md for the commits)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "realworld"))
from rescore_external import main_for_rounds  # noqa: E402

HERE = Path(__file__).parent
ROUNDS = {
    "l": ("findings-01326b3.json", "/tmp/ext54/l/trees"),
    "m": ("findings-eaddc38.json", "/tmp/ext54/m/trees"),
    "n": ("findings-e2d2178.json", "/tmp/ext54/n/trees"),
    "o": ("findings-53a2f84.json", "/tmp/ext54/o/trees"),
    "p": ("findings-d6acfab.json", "/tmp/ext54/p/trees"),
}

if __name__ == "__main__":
    sys.exit(main_for_rounds(HERE, ROUNDS, sys.argv[1:]))
