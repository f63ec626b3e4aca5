"""Benchmark `reprolint check` against Fixit 2, flake8 and ruff on torch's own code.

    python bench/run.py                 # everything, prints a table
    python bench/run.py --save bench/results/NAME.txt

One command: it installs the peers (fixit 2.2.1, flake8, ruff) into a throwaway venv
outside the project (never into the environment reprolint runs in), copies the corpora
from the installed torch package, runs every tool on the same files, and prints medians
with ratios. It measures the goals of issue 8:

* cold (``--no-cache``) at least 10x faster than Fixit 2 and no slower than flake8;
* warm (cache on, nothing changed) under 5% of cold;
* one small file (the pre-commit case) under 0.4 s, start-up included;
* cold CPU time at most 1.5x a bare libcst parse of the same files (issue 25);
* peak memory (the largest process: resource.getrusage of the children) under 400 MB
  on torch's whole package.

Corpora: ``nn/ optim/ utils/data/`` (205 files) and 600 files spread evenly over the
whole package (every k-th in path order, plus ``sparse/_triton_ops_meta.py``).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PEERS = {"fixit": "fixit==2.2.1", "flake8": "flake8", "ruff": "ruff"}
ONE_FILE = ROOT / "corpus" / "scripts" / "dcgan_random_manual_seed.py"
# The floor of any libcst-based checker (issue 25): one process parsing every file of the
# corpus with libcst, doing nothing else. Compared on CPU seconds (reprolint forks workers).
BARE_PARSE = (
    "import pathlib, sys, libcst\n"
    "for p in sorted(pathlib.Path(sys.argv[1]).rglob('*.py')):\n"
    "    try:\n"
    "        libcst.parse_module(p.read_bytes())\n"
    "    except Exception:\n"
    "        pass\n"
)


def torch_dir() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        sys.exit("bench: torch is not installed in this environment")
    return Path(spec.origin).parent


def ensure_peers(venv: Path) -> Path:
    """The bin folder of a venv holding the peers (created, or completed, when needed)."""
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    missing = [spec for name, spec in PEERS.items() if not (bin_dir / name).exists()]
    if missing:
        if not (bin_dir / "python").exists():
            print(f"bench: creating {venv}", file=sys.stderr)
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        print(f"bench: installing {' '.join(missing)} into {venv}", file=sys.stderr)
        subprocess.run(
            [str(bin_dir / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check", *missing],
            check=True,
        )
    return bin_dir


def build_corpora(work: Path, torch: Path) -> dict[str, Path]:
    corpora = {}
    small = work / "corpus205"
    if not small.exists():
        for part in ("nn", "optim", "utils/data"):
            shutil.copytree(torch / part, small / "torch" / part, ignore=shutil.ignore_patterns("__pycache__"))
    corpora["205"] = small
    big = work / "corpus600"
    if not big.exists():
        files = sorted(p.relative_to(torch) for p in torch.rglob("*.py") if "__pycache__" not in p.parts)
        step = len(files) / 600
        chosen = {files[int(i * step)] for i in range(600)}
        meta = Path("sparse/_triton_ops_meta.py")
        if meta in files and meta not in chosen:
            chosen.discard(sorted(chosen)[-1])
            chosen.add(meta)
        for rel in sorted(chosen):
            target = big / "torch" / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(torch / rel, target)
    corpora["600"] = big
    return corpora


def count(folder: Path) -> tuple[int, int]:
    files = list(folder.rglob("*.py"))
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    return len(files), lines


def timed(cmd: list[str], cwd: Path) -> tuple[float, int, float]:
    """Wall seconds, peak RSS (MB) of the largest process, and CPU seconds (user + system,
    the command and every process it waited for) of the command."""
    probe = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "wall = time.perf_counter() - t\n"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(wall, u.ru_maxrss, u.ru_utime + u.ru_stime)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe, *cmd], cwd=cwd, capture_output=True, text=True,
                         check=True, env=bytecode_env(cwd))
    wall, rss, cpu = out.stdout.split()
    return float(wall), int(rss) // 1024, float(cpu)


def bytecode_env(work: Path) -> dict[str, str]:
    """The environment for the tools, with Python's bytecode cache on (in ``work``).

    An installed package runs from .pyc files; with PYTHONDONTWRITEBYTECODE set (as in
    some sandboxes) reprolint, run from a source checkout, would compile its ~90 modules
    on every run (about 0.1 s of each one-file run).
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.setdefault("PYTHONPYCACHEPREFIX", str(work / "pycache"))
    return env


def median_of(
    cmd: list[str], cwd: Path, repeat: int, before: Optional[list[str]] = None
) -> tuple[float, int, float]:
    """Median wall seconds, the peak RSS over the runs, and median CPU seconds."""
    walls, cpus, peak = [], [], 0
    for _ in range(repeat):
        if before:
            subprocess.run(before, cwd=cwd, capture_output=True)
        wall, rss, cpu = timed(cmd, cwd)
        walls.append(wall)
        cpus.append(cpu)
        peak = max(peak, rss)
    return statistics.median(walls), peak, statistics.median(cpus)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", type=Path, default=Path(tempfile.gettempdir()) / "reprolint-bench-venv",
                        help="throwaway venv for the peers (default: %(default)s)")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "reprolint-bench",
                        help="where the corpora are copied (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (median)")
    parser.add_argument("--fixit-repeat", type=int, default=1, help="Fixit is slow: runs per corpus")
    parser.add_argument("--skip-whole-torch", action="store_true", help="no run on all of torch")
    parser.add_argument("--save", type=Path, help="also write the report to this file")
    parser.add_argument("--only", choices=["205", "600"], help="measure one corpus only")
    args = parser.parse_args(argv)

    torch = torch_dir()
    args.work.mkdir(parents=True, exist_ok=True)
    peers = ensure_peers(args.venv)
    corpora = build_corpora(args.work, torch)
    if args.only:
        corpora = {args.only: corpora[args.only]}
    reprolint = [sys.executable, "-m", "reprolint", "check", "--exit-zero", "-q"]
    cache_dir = args.work / ".reprolint_cache"
    clean = ["rm", "-rf", str(cache_dir)]
    lines: list[str] = []

    def say(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    versions = subprocess.run([str(peers / "python"), "-m", "pip", "list", "--format=freeze"],
                              capture_output=True, text=True).stdout
    peer_versions = ", ".join(
        line for line in versions.splitlines() if line.split("==")[0].lower() in ("fixit", "flake8", "ruff")
    )
    say(f"reprolint benchmark, {time.strftime('%Y-%m-%d %H:%M')}, {platform.platform()}, "
        f"{cores} cores, Python {platform.python_version()}")
    say(f"peers: {peer_versions}; torch at {torch}")
    say(f"medians of {args.repeat} runs (Fixit: {args.fixit_repeat}); wall time includes start-up; "
        "cpu: user + system seconds of all the tool's processes (the fair figure on a loaded machine)")
    say()
    results: dict[str, dict[str, tuple[float, int, float]]] = {}
    # compile reprolint's bytecode once, outside the timings (as an installed package has it)
    subprocess.run([*reprolint, "--no-cache", str(ONE_FILE)], cwd=args.work, capture_output=True,
                   env=bytecode_env(args.work))
    for name, folder in corpora.items():
        n, loc = count(folder)
        say(f"corpus {name}: {n} files, {loc:,} lines ({folder})")
        row: dict[str, tuple[float, int]] = {}
        rel = str(folder.relative_to(args.work))
        row["reprolint cold"] = median_of([*reprolint, "--no-cache", rel], args.work, args.repeat)
        subprocess.run([*reprolint, rel], cwd=args.work, capture_output=True)  # fill the cache
        row["reprolint warm"] = median_of([*reprolint, rel], args.work, args.repeat)
        edited = sorted(folder.rglob("*.py"))[0]
        original = edited.read_bytes()
        try:
            toggle = ["sh", "-c", f"printf '\\n# edited\\n' >> '{edited}'"]
            row["reprolint 1 edited"] = median_of([*reprolint, rel], args.work, args.repeat, before=toggle)
        finally:
            edited.write_bytes(original)
        row["libcst parse"] = median_of([sys.executable, "-c", BARE_PARSE, rel], args.work, args.repeat)
        row["Fixit 2"] = median_of([str(peers / "fixit"), "lint", rel], args.work, args.fixit_repeat)
        row["flake8"] = median_of([str(peers / "flake8"), rel], args.work, args.repeat)
        row["ruff"] = median_of([str(peers / "ruff"), "check", "--no-cache", "--select", "ALL",
                                 "--exit-zero", "--quiet", rel], args.work, args.repeat)
        results[name] = row
        subprocess.run(clean)

    say()
    names = list(corpora)
    say(f"{'tool':<22}" + "".join(
        f"{'corpus ' + n:>16}{'vs cold':>9}{'cpu s':>9}{'vs cold':>9}{'peak MB':>9}" for n in names))
    for tool in results[names[0]]:
        cells = ""
        for n in names:
            wall, rss, cpu = results[n][tool]
            ratio = wall / results[n]["reprolint cold"][0]
            cpu_ratio = cpu / max(results[n]["reprolint cold"][2], 1e-9)
            cells += f"{wall:>15.2f}s{ratio:>8.2f}x{cpu:>9.2f}{cpu_ratio:>8.2f}x{rss:>9}"
        say(f"{tool:<22}{cells}")
    say()
    one_cold = median_of([*reprolint, "--no-cache", str(ONE_FILE)], args.work, max(5, args.repeat))
    subprocess.run([*reprolint, str(ONE_FILE)], cwd=args.work, capture_output=True)
    one_warm = median_of([*reprolint, str(ONE_FILE)], args.work, max(5, args.repeat))
    say(f"one file ({ONE_FILE.name}, {ONE_FILE.stat().st_size:,} bytes): "
        f"{one_cold[0]:.3f} s without cache ({one_cold[2]:.3f} s cpu), "
        f"{one_warm[0]:.3f} s cached ({one_warm[2]:.3f} s cpu) (goal < 0.4 s)")
    subprocess.run(clean)
    if not args.skip_whole_torch:
        n, loc = count(torch)
        wall, rss, _ = median_of([*reprolint, "--no-cache", str(torch)], args.work, 1)
        say(f"whole torch package ({n} files, {loc:,} lines): {wall:.1f} s cold, "
            f"peak {rss} MB in the largest process (goal < 400 MB)")
    say()
    for n in names:
        row = results[n]
        cold = row["reprolint cold"][0]
        cold_cpu = max(row["reprolint cold"][2], 1e-9)
        say(f"corpus {n}: Fixit/reprolint {row['Fixit 2'][0] / cold:.1f}x (goal >= 10x; "
            f"cpu {row['Fixit 2'][2] / cold_cpu:.1f}x); "
            f"flake8/reprolint {row['flake8'][0] / cold:.2f}x (goal >= 1; cpu {row['flake8'][2] / cold_cpu:.2f}x); "
            f"warm {100 * row['reprolint warm'][0] / cold:.1f}% of cold (goal < 5%); "
            f"cold / bare libcst parse (one process) {cold / row['libcst parse'][0]:.2f}x wall, "
            f"{cold_cpu / max(row['libcst parse'][2], 1e-9):.2f}x cpu (goal <= 1.5x)")
    if args.save:
        args.save.parent.mkdir(parents=True, exist_ok=True)
        args.save.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
