"""Which judged findings of an external set (bench/results/external-*) `check` still reports.

Usage: python bench/realworld/rescore_external.py FINDINGS.json VERDICTS.toml TREES

FINDINGS holds the findings a blind judge read (repo, path, line, code ...), VERDICTS the
judge's `[[verdict]]` tables in the same order, TREES the repositories as
<owner>+<name>/ folders exported from the snapshots the `fetch` tool brings
(`run.py`'s `export`). Prints the verdict counts of the findings still reported, and of
those no longer reported."""
from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path
from typing import Optional


def rescore(findings_path: Path, verdicts_path: Path, trees: Path, listed: Optional[list[str]] = None) -> tuple[Counter, Counter]:
    """Verdict counts of the judged findings `check` still reports and of those it no
    longer reports (``listed``: filled with a line per finding no longer reported)."""
    findings = json.loads(findings_path.read_text())
    verdicts = tomllib.loads(verdicts_path.read_text())["verdict"]
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
        if key not in now and listed is not None:
            listed.append(f"  gone: {v['verdict']:3} {f['repo']} {f['path']}:{f['line']} {f['code']}")
    return kept, gone


def main(argv: list[str]) -> int:
    listed: list[str] = []
    kept, gone = rescore(Path(argv[0]), Path(argv[1]), Path(argv[2]), listed)
    print(f"still reported: {dict(kept)}; no longer reported: {dict(gone)}")
    print("\n".join(listed))
    return 0


def main_for_rounds(here: Path, rounds: dict[str, tuple[str, str]], argv: list[str]) -> int:
    """A stop's `rescore.py`: ``ROUND [TREES]`` picks a round of ``rounds`` (its findings
    file under ``here/ROUND/`` and its default trees folder) and rescores it."""
    name = argv[0] if argv else next(iter(rounds))
    dump, trees = rounds[name]
    return main([str(here / name / dump), str(here / name / "verdicts.toml"), argv[1] if len(argv) > 1 else trees])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
