"""Print, per library, how many rules/rng.toml APIs have a real-library case.

    python tests/libraries/verified_counts.py

An API counts as verified unless its entry lists it in `unverified`; the library is the
API's top-level package (for method draws, the package the entry requires).
"""

from __future__ import annotations

from collections import Counter

from reprolint.catalog import load_catalog


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


if __name__ == "__main__":
    rows = counts()
    for library, (ok, all_) in rows.items():
        print(f"{library:18} {ok:4} of {all_:4} verified")
    print(f"{'all':18} {sum(v for v, _ in rows.values()):4} of {sum(t for _, t in rows.values()):4} verified")
