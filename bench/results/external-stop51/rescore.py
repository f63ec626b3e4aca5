"""Which judged findings of the stop-51 external sets `check` still reports.

Usage: python bench/results/external-stop51/rescore.py ROUND [TREES]

ROUND is `d` (checked at 9d6b2fc, the stop-50 head; trees default /tmp/ext51d) or `e`
(checked at 7c320e7, after round d's fixes; default /tmp/ext51e); TREES holds the
repositories as <owner>+<name>/ folders exported from the snapshots the `fetch` tool
brings (see bench/realworld/rescore_external.py)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "realworld"))
from rescore_external import main_for_rounds  # noqa: E402

HERE = Path(__file__).parent
ROUNDS = {"d": ("findings-9d6b2fc.json", "/tmp/ext51d"), "e": ("findings-7c320e7.json", "/tmp/ext51e")}

if __name__ == "__main__":
    sys.exit(main_for_rounds(HERE, ROUNDS, sys.argv[1:]))
