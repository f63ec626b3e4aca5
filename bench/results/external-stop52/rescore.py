"""Which judged findings of the stop-52 external sets `check` still reports.

Usage: python bench/results/external-stop52/rescore.py ROUND [TREES]

ROUND is `f` (checked at 16cb3c7, the stop-51 head; trees default /tmp/ext52f/trees),
`g` (checked at 187c7d0, after round f's fixes; default /tmp/ext52g/trees) or `h`
(checked at ea99a78, after round g's first fixes; default /tmp/ext52h/trees); TREES holds
the repositories as <owner>+<name>/ folders exported from the snapshots the `fetch` tool
brings (see bench/realworld/rescore_external.py and README.md for the commits)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
ROUNDS = {
    "f": ("findings-16cb3c7.json", "/tmp/ext52f/trees"),
    "g": ("findings-187c7d0.json", "/tmp/ext52g/trees"),
    "h": ("findings-ea99a78.json", "/tmp/ext52h/trees"),
}

if __name__ == "__main__":
    name = sys.argv[1] if len(sys.argv) > 1 else "f"
    dump, trees = ROUNDS[name]
    trees = sys.argv[2] if len(sys.argv) > 2 else trees
    sys.exit(subprocess.run([sys.executable, str(HERE.parents[1] / "realworld" / "rescore_external.py"),
                             str(HERE / name / dump), str(HERE / name / "verdicts.toml"), trees]).returncode)
