"""Peak memory of `reprolint verify` on a command whose output is large: what holding
a run's output costs (issue 30, item 10; goal: at most 600 MB whatever the output).

The command is a Python one-liner printing ``--mb`` MB per run, as many 100-byte lines
(``lines``) or as one line (``one-line``). Each measurement is a fresh process that runs
`reprolint verify` and reports the peak resident set size of its children
(``RUSAGE_CHILDREN``: reprolint itself; the printing program stays small).
``--version NAME=DIR`` (repeatable) runs the reprolint whose package is in DIR (a
checkout or an unpacked ``git archive``), with PYTHONPATH=DIR, from a scratch folder.

Usage: python bench/verify_memory.py [--mb 300] [--version NAME=DIR]...
  e.g. git archive HEAD~1 | tar -x -C /tmp/old
       python bench/verify_memory.py --version before=/tmp/old --version after=.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_PRINTERS = {
    "lines": "import sys\nw = sys.stdout.write\nline = 'x' * 99 + '\\n'\nfor _ in range({n}):\n    w(line)\n",
    "one-line": "import sys\nchunk = 'x' * 1_000_000\nfor _ in range({mb}):\n    sys.stdout.write(chunk)\n",
}


def _measure(package: Path, shape: str, mb: int) -> tuple[float, float, int]:
    """(peak MB of reprolint, wall seconds, exit status) of one verify run."""
    with tempfile.TemporaryDirectory(prefix="verify-memory-") as scratch:
        program = Path(scratch) / "printer.py"
        program.write_text(_PRINTERS[shape].format(n=mb * 10_000, mb=mb))
        env = {**os.environ, "PYTHONPATH": str(package.resolve()), "REPROLINT_KEEP_RUNS": "1"}
        probe = (
            "import resource, subprocess, sys, time\n"
            "start = time.perf_counter()\n"
            "done = subprocess.run([sys.executable, '-m', 'reprolint', 'verify', '--', sys.executable, 'printer.py'],"
            " stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
            "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
            "print(peak, time.perf_counter() - start, done.returncode)\n"
        )
        out = subprocess.run([sys.executable, "-c", probe], cwd=scratch, env=env, capture_output=True,
                             text=True, check=True).stdout.split()
        return float(out[0]), float(out[1]), int(out[2])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=300, help="MB printed per run (default 300)")
    parser.add_argument("--version", action="append", default=[], metavar="NAME=DIR")
    args = parser.parse_args()
    versions = [v.split("=", 1) for v in args.version] or [["this", "."]]
    print(f"reprolint verify (2 runs), a command printing {args.mb} MB per run; peak RSS of reprolint")
    print(f"{'version':<10} {'output':<9} {'peak MB':>8} {'wall s':>7} {'exit':>4}")
    for shape in _PRINTERS:
        for name, folder in versions:
            peak, wall, status = _measure(Path(folder), shape, args.mb)
            print(f"{name:<10} {shape:<9} {peak:>8.0f} {wall:>7.1f} {status:>4}", flush=True)
    print(f"(python {sys.version.split()[0]}, {os.cpu_count()} cores, {time.strftime('%Y-%m-%d')})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
