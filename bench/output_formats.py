"""Wall time of a cold `reprolint check` per output format, on each folder given: what
JSON and SARIF cost over the text formats, which do not compute fix edits.

Each folder is checked with ``--no-cache`` in a fresh process, text then JSON, ``--repeat``
times (the median is kept); the JSON output is written next to the table's folder name
under ``--dump`` when given, to compare two versions byte for byte.

Usage: python bench/output_formats.py [--repeat N] [--jobs N] [--dump DIR] FOLDER...
  e.g. python bench/output_formats.py /tmp/realworld/*/   (the real-world checkouts)
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional


def _timed(command: list[str], out: Optional[Path]) -> float:
    start = time.perf_counter()
    if out is None:
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    else:
        with open(out, "wb") as sink:
            subprocess.run(command, stdout=sink, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--dump", type=Path, default=None)
    args = parser.parse_args()
    base = [sys.executable, "-m", "reprolint", "check", "--no-cache", "--exit-zero"]
    if args.jobs is not None:
        base += ["--jobs", str(args.jobs)]
    if args.dump is not None:
        args.dump.mkdir(parents=True, exist_ok=True)
    totals = [0.0, 0.0]
    print(f"{'folder':<50} {'text s':>7} {'json s':>7} {'json/text':>9}")
    for folder in args.folders:
        name = folder.resolve().name
        dump = args.dump / f"{name}.json" if args.dump is not None else None
        text = statistics.median(_timed([*base, str(folder)], None) for _ in range(args.repeat))
        json = statistics.median(
            _timed([*base, "--output-format", "json", str(folder)], dump) for _ in range(args.repeat)
        )
        totals[0] += text
        totals[1] += json
        print(f"{name:<50} {text:7.2f} {json:7.2f} {json / text:9.2f}")
    print(f"{'total':<50} {totals[0]:7.2f} {totals[1]:7.2f} {totals[1] / totals[0]:9.2f}")


if __name__ == "__main__":
    main()
