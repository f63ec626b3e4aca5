"""Time of `reprolint check` per output format on one notebook of many cells (issue 30,
item 11): mapping findings back to cells and to the lines of the `.ipynb` file must be
linear in the notebook's size.

The notebook has ``--cells`` code cells (default 100,000) of one line each, one in ten
drawing from an unseeded RNG (a finding). Each format runs once, cold
(``--no-cache``), in a fresh process; ``--version NAME=DIR`` compares checkouts
(PYTHONPATH=DIR), ``--timeout`` bounds each run.

Usage: python bench/notebook_cells.py [--cells N] [--timeout S] [--version NAME=DIR]...
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FORMATS = ("concise", "text", "json", "github", "sarif")


def make_notebook(path: Path, cells: int) -> None:
    """A notebook of `cells` code cells, the first importing torch, every tenth a draw."""
    # One short line a cell: 100,000 cells stay under the 1 MB limit on a program.
    sources = [["import torch\n"]]
    for i in range(1, cells):
        sources.append(["t = torch.randn(3)\n"] if i % 10 == 0 else ["x\n"])
    document = {
        "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": s}
                  for s in sources],
        "metadata": {"kernelspec": {"name": "python3", "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5,
    }
    path.write_text(json.dumps(document, indent=1))


def _run(package: str, fmt: str, cwd: str, timeout: float) -> tuple[str, float]:
    env = {**os.environ, "PYTHONPATH": str(Path(package).resolve())}
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "reprolint", "check", "--no-cache", "--output-format", fmt,
                               "nb.ipynb"], cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f">{timeout:.0f}", timeout
    seconds = time.perf_counter() - start
    if done.returncode != 1 or b"RPL900" in done.stderr:
        return f"exit {done.returncode}", seconds
    return f"{seconds:.1f}", seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=100_000)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--version", action="append", default=[], metavar="NAME=DIR")
    args = parser.parse_args()
    versions = [v.split("=", 1) for v in args.version] or [["this", "."]]
    with tempfile.TemporaryDirectory(prefix="notebook-cells-") as scratch:
        make_notebook(Path(scratch) / "nb.ipynb", args.cells)
        size = (Path(scratch) / "nb.ipynb").stat().st_size
        print(f"check --no-cache on one notebook of {args.cells:,} code cells ({size / 1e6:.1f} MB), seconds")
        print(f"{'version':<10}" + "".join(f"{f:>9}" for f in FORMATS))
        for name, folder in versions:
            row = [_run(folder, fmt, scratch, args.timeout)[0] for fmt in FORMATS]
            print(f"{name:<10}" + "".join(f"{c:>9}" for c in row), flush=True)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"(peak RSS of any run: {peak:.0f} MB; python {sys.version.split()[0]}, {os.cpu_count()} cores, "
          f"{time.strftime('%Y-%m-%d')})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
