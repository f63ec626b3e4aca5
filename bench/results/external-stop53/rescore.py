"""Which judged findings of the stop-53 external sets `check` still reports.

Usage: python bench/results/external-stop53/rescore.py ROUND [TREES]

ROUND is `i` (checked at 382264d, the stop-52 head; trees default /tmp/ext53i/trees),
`j` (checked at 55d00ff, after round i's fixes; default /tmp/ext53j/trees) or `k`
(checked at 8412213, after round j's fixes; default /tmp/ext53k/trees); TREES holds the
repositories as <owner>+<name>/ folders exported from the snapshots the `fetch` tool
brings (see bench/realworld/rescore_external.py and README.md for the commits)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
ROUNDS = {
    "i": ("findings-382264d.json", "/tmp/ext53i/trees"),
    "j": ("findings-55d00ff.json", "/tmp/ext53j/trees"),
    "k": ("findings-8412213.json", "/tmp/ext53k/trees"),
}

if __name__ == "__main__":
    name = sys.argv[1] if len(sys.argv) > 1 else "i"
    dump, trees = ROUNDS[name]
    trees = sys.argv[2] if len(sys.argv) > 2 else trees
    sys.exit(subprocess.run([sys.executable, str(HERE.parents[1] / "realworld" / "rescore_external.py"),
                             str(HERE / name / dump), str(HERE / name / "verdicts.toml"), trees]).returncode)
