"""Which judged findings of the stop-51 external sets `check` still reports.

Usage: python bench/results/external-stop51/rescore.py ROUND [TREES]

ROUND is `d` (checked at 9d6b2fc, the stop-50 head; trees default /tmp/ext51d) or `e`
(checked at 7c320e7, after round d's fixes; default /tmp/ext51e); TREES holds the
repositories as <owner>+<name>/ folders exported from the snapshots the `fetch` tool
brings (see bench/realworld/rescore_external.py)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
ROUNDS = {"d": ("findings-9d6b2fc.json", "/tmp/ext51d"), "e": ("findings-7c320e7.json", "/tmp/ext51e")}

if __name__ == "__main__":
    name = sys.argv[1] if len(sys.argv) > 1 else "d"
    dump, trees = ROUNDS[name]
    trees = sys.argv[2] if len(sys.argv) > 2 else trees
    sys.exit(subprocess.run([sys.executable, str(HERE.parents[1] / "realworld" / "rescore_external.py"),
                             str(HERE / name / dump), str(HERE / name / "verdicts.toml"), trees]).returncode)
