"""Which judged findings of the stop-49 external set `check` still reports.

Usage: python bench/results/external-stop49/rescore.py [TREES]

TREES holds the repositories as <owner>+<name>/ folders (default /tmp/ext), exported
from the snapshots the `fetch` tool brings (see bench/realworld/rescore_external.py)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent

if __name__ == "__main__":
    trees = sys.argv[1] if len(sys.argv) > 1 else "/tmp/ext"
    sys.exit(subprocess.run([sys.executable, str(HERE.parents[1] / "realworld" / "rescore_external.py"),
                             str(HERE / "findings-975c516.json"), str(HERE / "verdicts.toml"), trees]).returncode)
