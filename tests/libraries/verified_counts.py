"""Print, per library, how many rules/rng.toml APIs have a real-library case, then each
API that has none with the reason the catalog gives for it.

    python tests/libraries/verified_counts.py

An API counts as verified unless its entry lists it in `unverified`; the library is the
API's top-level package (for method draws, the package the entry requires). The reason is
the comment right above the entry's `unverified` line, else the entry's first comment.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path
from typing import Iterator, List, Tuple

from reprolint.catalog import load_catalog

CATALOG_TEXT = Path(__file__).resolve().parents[2] / "rules" / "rng.toml"


def counts() -> "dict[str, tuple[int, int]]":
    data = load_catalog("rng")
    total: Counter = Counter()
    verified: Counter = Counter()
    for section in ("seeders", "draws", "method_draws", "instances"):
        for entry in data.get(section, []):
            names = entry["methods"] if section == "method_draws" else entry["api"]
            for name in names:
                library = entry["requires"] if section == "method_draws" else name.split(".")[0]
                total[library] += 1
                if name not in entry.get("unverified", ()):
                    verified[library] += 1
    for entry in data.get("environment_draws", []):
        for library in entry["requires"][:1]:  # checked with gymnasium
            total[library] += len(entry["methods"])
            verified[library] += len(entry["methods"])
    return {library: (verified[library], total[library]) for library in sorted(total)}


def _entries(text: str) -> Iterator[Tuple[str, dict, List[str]]]:
    """(section, entry, its lines) for each `[[section]]` table of the catalog's text."""
    blocks = re.split(r"^(?=\[)", text, flags=re.M)
    for block in blocks:
        header = re.match(r"\[\[(\w+)\]\]", block)
        if header:
            yield header.group(1), tomllib.loads(block)[header.group(1)][0], block.splitlines()


def _reason(lines: List[str], key: str) -> str:
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{key} ="))
    above: List[str] = []
    for line in reversed(lines[:at]):
        if not line.startswith("#"):
            break
        above.insert(0, line)
    if not above:  # the entry's first comment block
        for line in lines[1:at]:
            if line.startswith("#"):
                above.append(line)
            elif above:
                break
    return " ".join(line.lstrip("# ").strip() for line in above) or "(no reason given)"


def unverified(text: str) -> "list[tuple[str, str, str]]":
    """(library, API, reason) for each API (or seeded library) no real-library case runs."""
    rows = []
    for section, entry, lines in _entries(text):
        for name in entry.get("unverified", ()):
            library = entry["requires"] if section == "method_draws" else name.split(".")[0]
            shown = f"{entry['requires']}: .{name}()" if section == "method_draws" else name
            rows.append((library, shown, _reason(lines, "unverified")))
        for library in entry.get("unverified_seeds", ()):
            rows.append((library, f"{entry['api'][0]} seeding {library}", _reason(lines, "unverified_seeds")))
    return sorted(rows, key=lambda row: row[0])


if __name__ == "__main__":
    rows = counts()
    for library, (ok, all_) in rows.items():
        print(f"{library:18} {ok:4} of {all_:4} verified")
    print(f"{'all':18} {sum(v for v, _ in rows.values()):4} of {sum(t for _, t in rows.values()):4} verified")
    print()
    print("not verified:")
    for library, api, why in unverified(CATALOG_TEXT.read_text(encoding="utf-8")):
        print(f"  {library:18} {api}\n  {'':18}   {why}")
