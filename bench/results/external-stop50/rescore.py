"""Which judged findings of the stop-50 external sets `check` still reports.

Usage: python bench/results/external-stop50/rescore.py ROUND [TREES]

ROUND is `a` (checked at 1fc8dad, trees default /tmp/ext50) or `b` (checked at a2327b0,
trees default /tmp/ext50b). TREES holds the repositories as <owner>+<name>/ folders,
exported from the snapshots the `fetch` tool brings (bench/realworld/run.py's `export`).
Prints the verdict counts of the findings still reported, and of those no longer
reported."""
from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

HERE = Path(__file__).parent
ROUNDS = {"a": ("findings-1fc8dad.json", "/tmp/ext50"), "b": ("findings-a2327b0.json", "/tmp/ext50b")}


def main() -> int:
    name = sys.argv[1] if len(sys.argv) > 1 else "a"
    dump, default_trees = ROUNDS[name]
    trees = Path(sys.argv[2] if len(sys.argv) > 2 else default_trees)
    findings = json.loads((HERE / name / dump).read_text())
    verdicts = tomllib.loads((HERE / name / "verdicts.toml").read_text())["verdict"]
    now: set[tuple[str, str, int, str]] = set()
    for repo in sorted({f["repo"] for f in findings}):
        folder = trees / repo.replace("/", "+")
        out = subprocess.run(
            [sys.executable, "-m", "reprolint", "check", str(folder), "--output-format", "json", "--no-cache", "--exit-zero"],
            capture_output=True, text=True, check=True,
        ).stdout
        now |= {(repo, str(Path(d["path"]).relative_to(folder)), d["line"], d["code"]) for d in json.loads(out)}
    kept, gone = Counter(), Counter()
    for f, v in zip(findings, verdicts):
        key = (f["repo"], f["path"], f["line"], f["code"])
        (kept if key in now else gone)[v["verdict"]] += 1
    print(f"round {name}: still reported: {dict(kept)}; no longer reported: {dict(gone)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
