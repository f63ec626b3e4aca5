"""Wall time of a cold `reprolint check` per output format, on each folder given: what
JSON and SARIF cost over the text formats, which do not compute fix edits.

Each folder is checked with ``--no-cache`` in a fresh process, text then JSON, ``--repeat``
times (the median is kept). ``--version NAME=DIR`` (repeatable) runs the reprolint whose
package is in DIR (a checkout; the runs start outside it, with PYTHONPATH=DIR), the
versions taking turns run by run, so that a machine that slows down mid-way slows all
of them alike. ``--dump DIR`` keeps each version's JSON output, to compare byte for byte.

Usage: python bench/output_formats.py [--repeat N] [--version NAME=DIR]... [--dump DIR] FOLDER...
  e.g. python bench/output_formats.py --repeat 3 --version before=/tmp/old --version after=. \\
         /tmp/realworld/*/      (the real-world checkouts of bench/realworld/run.py)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional


def _timed(command: list[str], env: dict[str, str], cwd: str, out: Optional[Path]) -> float:
    start = time.perf_counter()
    if out is None:
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd, check=False)
    else:
        with open(out, "wb") as sink:
            subprocess.run(command, stdout=sink, stderr=subprocess.DEVNULL, env=env, cwd=cwd, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--version", action="append", default=[], metavar="NAME=DIR")
    parser.add_argument("--dump", type=Path, default=None)
    args = parser.parse_args()
    versions = [v.split("=", 1) for v in args.version] or [["installed", ""]]
    base = [sys.executable, "-m", "reprolint", "check", "--no-cache", "--exit-zero"]
    neutral = tempfile.mkdtemp(prefix="reprolint-formats-")  # no reprolint/ package here
    header = "".join(f" {name + ' text':>14} {name + ' json':>14}" for name, _ in versions)
    print(f"{'folder':<46}{header}")
    totals = {(name, fmt): 0.0 for name, _ in versions for fmt in ("text", "json")}
    for folder in args.folders:
        folder = folder.resolve()
        times: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.repeat):
            for name, directory in versions:
                env = dict(os.environ)
                if directory:
                    env["PYTHONPATH"] = str(Path(directory).resolve())
                dump = None
                if args.dump is not None:
                    (args.dump / name).mkdir(parents=True, exist_ok=True)
                    dump = args.dump / name / f"{folder.name}.json"
                times.setdefault((name, "text"), []).append(_timed([*base, str(folder)], env, neutral, None))
                times.setdefault((name, "json"), []).append(
                    _timed([*base, "--output-format", "json", str(folder)], env, neutral, dump)
                )
        row = ""
        for name, _ in versions:
            for fmt in ("text", "json"):
                median = statistics.median(times[(name, fmt)])
                totals[(name, fmt)] += median
                row += f" {median:14.2f}"
        print(f"{folder.name:<46}{row}", flush=True)
    print(f"{'total':<46}" + "".join(f" {totals[(n, f)]:14.2f}" for n, _ in versions for f in ("text", "json")))


if __name__ == "__main__":
    main()
