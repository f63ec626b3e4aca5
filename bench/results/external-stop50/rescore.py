"""Which judged findings of the stop-50 external sets `check` still reports.

Usage: python bench/results/external-stop50/rescore.py ROUND [TREES]

ROUND is `a` (checked at 1fc8dad, trees default /tmp/ext50), `b` (at a2327b0, default
/tmp/ext50b) or `c` (at af2716e, default /tmp/ext50c); TREES holds the repositories as
<owner>+<name>/ folders exported from the snapshots the `fetch` tool brings (see
bench/realworld/rescore_external.py)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "realworld"))
from rescore_external import main_for_rounds  # noqa: E402

HERE = Path(__file__).parent
ROUNDS = {"a": ("findings-1fc8dad.json", "/tmp/ext50"), "b": ("findings-a2327b0.json", "/tmp/ext50b"),
          "c": ("findings-af2716e.json", "/tmp/ext50c")}

if __name__ == "__main__":
    sys.exit(main_for_rounds(HERE, ROUNDS, sys.argv[1:]))
