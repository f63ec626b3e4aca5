"""Which judged findings of the stop-49 external set `check` still reports.

Usage: python bench/results/external-stop49/rescore.py [TREES]

TREES holds the repositories as <owner>+<name>/ folders (default /tmp/ext), exported
from the snapshots the `fetch` tool brings. Prints the verdict counts of the findings
still reported, and those no longer reported."""
from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

HERE = Path(__file__).parent


def main() -> int:
    trees = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/ext")
    findings = json.loads((HERE / "findings-975c516.json").read_text())
    verdicts = tomllib.loads((HERE / "verdicts.toml").read_text())["verdict"]
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
    print(f"still reported: {dict(kept)}; no longer reported: {dict(gone)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
