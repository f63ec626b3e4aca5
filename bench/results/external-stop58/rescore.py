"""Which judged findings of the stop-58 external sets `check` still reports.

Usage: python bench/results/external-stop58/rescore.py x|y [TREES]

Round `x` was checked at 591752f, `y` at f1f560b; TREES (default /tmp/ext58/ROUND/trees)
holds the repositories as <owner>+<name>/ folders exported from the snapshots the `fetch`
tool brings, at the commits ROUND/commits.json names (see bench/realworld/rescore_external.py)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "realworld"))
from rescore_external import main_for_rounds  # noqa: E402

HERE = Path(__file__).parent
ROUNDS = {
    "x": ("findings-591752f.json", "/tmp/ext58/x/trees"),
    "y": ("findings-f1f560b.json", "/tmp/ext58/y/trees"),
}

if __name__ == "__main__":
    sys.exit(main_for_rounds(HERE, ROUNDS, sys.argv[1:]))
