"""Which judged findings of the stop-50 external sets `check` still reports.

Usage: python bench/results/external-stop50/rescore.py ROUND [TREES]

ROUND is `a` (checked at 1fc8dad, trees default /tmp/ext50), `b` (at a2327b0, default
/tmp/ext50b) or `c` (at af2716e, default /tmp/ext50c); TREES holds the repositories as
<owner>+<name>/ folders exported from the snapshots the `fetch` tool brings (see
bench/realworld/rescore_external.py)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
ROUNDS = {"a": ("findings-1fc8dad.json", "/tmp/ext50"), "b": ("findings-a2327b0.json", "/tmp/ext50b"),
          "c": ("findings-af2716e.json", "/tmp/ext50c")}

if __name__ == "__main__":
    name = sys.argv[1] if len(sys.argv) > 1 else "a"
    dump, trees = ROUNDS[name]
    trees = sys.argv[2] if len(sys.argv) > 2 else trees
    sys.exit(subprocess.run([sys.executable, str(HERE.parents[1] / "realworld" / "rescore_external.py"),
                             str(HERE / name / dump), str(HERE / name / "verdicts.toml"), trees]).returncode)
