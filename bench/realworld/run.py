"""Score `reprolint check` on public training repositories: precision, recall, messages.

    python bench/realworld/run.py --set dev          # the development set (manifest.toml)
    python bench/realworld/run.py --set frozen       # the frozen test set (frozen/), blind
    python bench/realworld/run.py --set B            # set B, labelled outside the team (B/)
    python bench/realworld/run.py --set all          # the three, side by side
    python bench/realworld/run.py --set all --reprolint-at b9fb778 --jobs 2

Each run writes its report to bench/results/realworld-<set>-<date>-<commit>.txt and its
findings, one JSON line each, to bench/results/dumps/<set>-<commit>.jsonl (``--no-save``
keeps them out). How the sets are labelled and scored: evalsets.py and LABELLING.md.

Each repository is read from a bare mirror ``<fetch-root>/<owner>+<name>/repo`` (what the
``fetch`` tool brings) and exported at its pinned commit into ``<work-root>/<owner>+<name>/``:
the ``.py`` and ``.ipynb`` files and the configuration and requirement files a checker may
read (files under 1 MB; mirrors may lack large blobs such as images, so ``git archive`` is
not used). A missing mirror or commit is skipped with a message. Then ``reprolint check
--output-format json --no-cache --exit-zero`` runs over the tree (the installed CLI, or the
project at ``--reprolint-at``, as a subprocess of this interpreter).

Precision: strict (TP / judged), lenient ((TP + TP*) / judged) and the share of accurate
messages. The dev and frozen sets score a stratified sample of 150 findings (every rule
represented) fixed by a hash of (repo, path, code, line, message), so unrelated changes do
not reshuffle it; set B scores every finding that joins one of its verdicts. Findings of
the sample without a verdict are counted as unjudged (``--to-judge FILE`` writes them out
for a blind judge, with those whose message changed since their verdict: a verdict's
accuracy holds for the message it judged, which it keeps). Recall: the share of
high-confidence labelled problems that a finding of a matching code points at, or lists
among its related locations, within 3 lines; a program-level problem (RPL105, RPL30x) is
found by a finding of its code that names its entry point.

Nothing of the repositories is committed: only their names, commits and our labels.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import subprocess
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

from claims import Claimed, failed_claims  # noqa: E402
from evalsets import (  # noqa: E402  (a script beside its module)
    SUMMARY_HEADER,
    code_cell_numbers,
    EvalSet,
    Finding,
    Repo,
    load,
    norm_path,
    report_lines,
    score,
    summary_line,
)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RESULTS = ROOT / "bench" / "results"
SUFFIXES = (".py", ".ipynb")
# Files a checker may read besides the sources: configuration, declared requirements.
CONFIG_NAMES = ("pyproject.toml", "setup.cfg", "reprolint.toml", "Pipfile", "Pipfile.lock",
                "poetry.lock", "uv.lock")
CONFIG_SUFFIXES = (".txt", ".yaml", ".yml", ".toml", ".cfg", ".json", ".ini")
MAX_EXPORT = 1_000_000
SAMPLE_MIN = 150
SAMPLE_CAP = 25
MARKER = ".realworld-commit"
SETS = ("dev", "frozen", "B")


def order(finding: Finding) -> str:
    text = "\0".join([finding.repo, finding.path, finding.code, str(finding.line), finding.message])
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class RepoRun:
    repo: Repo
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    skipped: str = ""


# --- export and check ---------------------------------------------------------------


def export(repo: Repo, fetch_root: Path, work_root: Path) -> tuple[Optional[Path], str]:
    """The exported tree of `repo` at its commit, or None and why not."""
    git_dir = fetch_root / repo.slug / "repo"
    if (git_dir / ".git").is_dir():  # some snapshots arrive as a work tree's .git
        git_dir = git_dir / ".git"
    if not git_dir.is_dir():
        return None, f"no mirror at {git_dir} (fetch github:{repo.name} first)"
    dest = work_root / repo.slug
    marker = dest / MARKER
    if marker.exists() and marker.read_text().strip() == repo.commit:
        return dest, ""
    git = ["git", "--git-dir", str(git_dir)]
    listing = subprocess.run(
        [*git, "ls-tree", "-r", "-l", "-z", repo.commit], capture_output=True
    )
    if listing.returncode != 0:
        return None, f"commit {repo.commit[:12]} not in {git_dir}"
    wanted = []
    for record in listing.stdout.split(b"\0"):
        if not record:
            continue
        meta, _, name = record.partition(b"\t")
        mode, kind, sha, size = meta.split()
        path = name.decode("utf-8", "surrogateescape")
        base = path.rsplit("/", 1)[-1]
        small = size.isdigit() and int(size) <= MAX_EXPORT
        if kind == b"blob" and mode != b"120000" and (
            path.endswith(SUFFIXES)
            or (small and (base in CONFIG_NAMES or path.endswith(CONFIG_SUFFIXES)))
        ):
            wanted.append((path, sha.decode()))
    if dest.exists():
        subprocess.run(["rm", "-rf", str(dest)], check=True)
    dest.mkdir(parents=True)
    batch = subprocess.run(
        [*git, "cat-file", "--batch"],
        input="".join(f"{sha}\n" for _, sha in wanted).encode(),
        capture_output=True,
        check=True,
    )
    data, pos, missing = batch.stdout, 0, 0
    for path, _ in wanted:
        end = data.index(b"\n", pos)
        header = data[pos:end].split()
        pos = end + 1
        if header[-1] == b"missing":
            missing += 1
            continue
        size = int(header[2])
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data[pos : pos + size])
        pos += size + 1
    if missing:
        print(f"  {repo.name}: {missing} file(s) absent from the mirror", file=sys.stderr)
    marker.write_text(repo.commit + "\n")
    return dest, ""


def as_finding(repo: str, raw: dict[str, Any]) -> Finding:
    related = []
    for item in raw.get("related") or []:
        if isinstance(item, dict) and "path" in item and "line" in item:
            cell = item.get("cell")
            related.append(
                (norm_path(str(item["path"])), int(item["line"]), None if cell is None else int(cell))
            )
    entries = raw.get("entry_points")
    entry_points = None
    if isinstance(entries, list):
        names = []
        for item in entries:
            name = item.get("path") if isinstance(item, dict) else item
            if name is not None:
                names.append(norm_path(str(name)))
        entry_points = tuple(names)
    cell = raw.get("cell")
    return Finding(
        repo=repo,
        code=str(raw["code"]),
        path=norm_path(str(raw["path"])),
        line=int(raw.get("line") or 0),
        cell=int(cell) if cell is not None else None,
        message=str(raw.get("message", "")),
        related=tuple(related),
        entry_points=entry_points,
    )


def reprolint_at(commit: str, work_root: Path) -> tuple[Path, str]:
    """This project's code at `commit`, exported once, so a run never sees half-done edits."""
    full = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", commit + "^{commit}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    dest = work_root / f"_reprolint-{full[:12]}"
    if not (dest / MARKER).exists():
        dest.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", full], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
        (dest / MARKER).write_text(full + "\n")
    return dest, full


def check(
    repo: Repo, tree: Path, jobs: Optional[int], source: Optional[Path] = None
) -> tuple[list[Finding], float]:
    command = [sys.executable, "-m", "reprolint", "check", "--output-format", "json"]
    command += ["--no-cache", "--exit-zero"]
    if jobs:
        command += ["--jobs", str(jobs)]
    command += list(repo.paths)
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(source), env.get("PYTHONPATH")]))
    start = time.perf_counter()
    done = subprocess.run(command, cwd=tree, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-5:]
        raise RuntimeError(f"reprolint failed on {repo.name} ({done.returncode}): {tail}")
    raw = json.loads(done.stdout or "[]")
    if isinstance(raw, dict):  # a schema that wraps the list
        raw = raw.get("findings", raw.get("diagnostics", []))
    return [as_finding(repo.name, item) for item in raw], seconds


# --- sampling ----------------------------------------------------------------------


def quotas(counts: Counter) -> dict[str, int]:
    """How many findings of each rule the sample takes.

    Proportional to the rule's share of all findings (so the rules a user sees most weigh
    most), at most SAMPLE_CAP, and at least a floor that rises until the sample reaches
    SAMPLE_MIN (or every finding), so every rule that fires is represented.
    """
    total = sum(counts.values())

    def take(floor: int) -> dict[str, int]:
        return {
            code: min(n, max(floor, min(SAMPLE_CAP, round(SAMPLE_MIN * n / total))))
            for code, n in counts.items()
        }

    floor = 1
    while sum(take(floor).values()) < min(SAMPLE_MIN, total) and floor < SAMPLE_CAP:
        floor += 1
    return take(floor)


def sample(findings: list[Finding]) -> list[Finding]:
    by_rule: dict[str, list[Finding]] = defaultdict(list)
    for finding in findings:
        by_rule[finding.code].append(finding)
    quota = quotas(Counter({code: len(v) for code, v in by_rule.items()}))
    chosen = []
    for code in sorted(by_rule):
        chosen += sorted(by_rule[code], key=order)[: quota[code]]
    return chosen


def git_head() -> str:
    done = subprocess.run(
        ["git", "-C", str(ROOT), "log", "-1", "--format=%H %cd", "--date=iso"],
        capture_output=True,
        text=True,
    )
    return done.stdout.strip() or "unknown"


def read_dump(path: Path) -> tuple[list[str], dict[str, list[Finding]]]:
    header: list[str] = []
    found: dict[str, list[Finding]] = defaultdict(list)
    for text in path.read_text().splitlines():
        item = json.loads(text)
        if "header" in item:
            header = item["header"]
            continue
        item["related"] = tuple(tuple((*r, None)[:3]) for r in item["related"])
        if item["entry_points"] is not None:
            item["entry_points"] = tuple(item["entry_points"])
        found[item["repo"]].append(Finding(**item))
    return header, found


def run_set(evalset: EvalSet, args: argparse.Namespace, source: Optional[Path],
            dumped: Optional[dict[str, list[Finding]]]) -> list[RepoRun]:
    repos = [r for r in evalset.repos if not args.only or r.name in args.only]
    runs = []
    for repo in repos:
        run = RepoRun(repo)
        runs.append(run)
        if dumped is not None:
            run.findings = dumped.get(repo.name, [])
            if any(p.repo == repo.name and p.cell is not None for p in evalset.problems):
                # the notebooks give the cell numbers of the labels: export them if need be
                tree = args.work_root / repo.slug
                if not tree.is_dir():
                    tree, why = export(repo, args.fetch_root, args.work_root)
                if tree is not None:
                    code_cell_numbers(evalset, repo.name, tree)
                else:
                    print(f"{repo.name}: notebook labels not renumbered: {why}", file=sys.stderr)
            continue
        tree, why = export(repo, args.fetch_root, args.work_root)
        if tree is None:
            run.skipped = why
            print(f"skip {repo.name}: {why}", file=sys.stderr)
            continue
        code_cell_numbers(evalset, repo.name, tree)
        run.findings, run.seconds = check(repo, tree, args.jobs, source)
        print(f"{evalset.name} {repo.name}: {len(run.findings)} findings in {run.seconds:.1f} s",
              file=sys.stderr)
    return runs


def claim_lines(evalset: EvalSet, runs: list[RepoRun], work_root: Path) -> list[str]:
    """The message claims that the exported source does not bear out, per rule, over
    every finding (claims.py; notebooks and findings of repositories not exported are
    not checked). A blind set gets counts only."""
    checked: Counter = Counter()
    failing: Counter = Counter()
    kinds: Counter = Counter()
    shown: list[str] = []
    for run in runs:
        tree = work_root / run.repo.slug
        if not tree.is_dir():
            continue
        cache: dict[str, Optional[list[str]]] = {}

        def lines(path: str) -> Optional[list[str]]:
            if path not in cache:
                try:
                    cache[path] = (tree / path).read_text(encoding="utf-8", errors="replace").splitlines()
                except OSError:
                    cache[path] = None
            return cache[path]

        for f in run.findings:
            if f.cell is not None or f.code == "RPL900":
                continue
            places = ((f.path, f.line), *((p, l) for p, l, c in f.related if c is None))
            # a dump keeps first lines only: a quoted call may go on over the next two
            claimed = Claimed(f.path, f.line, f.line + 2, f.message, places, tuple(f.entry_points or ()),
                              program_level=f.line == 1)
            checked[f.code] += 1
            failed = failed_claims(claimed, lines)
            if failed:
                failing[f.code] += 1
                kinds.update(kind.split(" (")[0] for kind in failed)
                if not evalset.blind and len(shown) < 30:
                    shown.append(f"  {f.code} {f.repo}:{f.path}:{f.line}  {'; '.join(failed)}")
    if not checked:
        return []
    out = ["", f"### Message claims the source does not bear out (claims.py; {sum(checked.values())} findings checked)",
           f"{'rule':7} {'checked':>7} {'failing':>7}"]
    out += [f"{code:7} {checked[code]:>7} {failing[code]:>7}" for code in sorted(checked)]
    out += [f"  {n:>4}  {kind}" for kind, n in kinds.most_common()]
    return out + shown


def to_judge(path: Path, runs: list[RepoRun], unjudged: list[Finding]) -> None:
    """Write the findings that need a verdict, per repository, for a blind judge."""
    wanted = {f.key for f in unjudged}
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for run in runs:
        for f in run.findings:
            if f.key in wanted:
                out[f.repo].append({k: v for k, v in f.__dict__.items() if k != "repo"})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"{sum(map(len, out.values()))} findings to judge written to {path}", file=sys.stderr)


def main(argv: Optional[Iterable[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", dest="sets", choices=(*SETS, "all"), default="dev",
                        help="which evaluation set (default: dev); all: the three side by side")
    parser.add_argument("--fetch-root", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--work-root", type=Path, default=Path("/tmp/realworld"))
    parser.add_argument("--out", type=Path, help="write the report to this file instead")
    parser.add_argument("--no-save", action="store_true",
                        help="do not keep the report and findings under bench/results/")
    parser.add_argument("--jobs", type=int, help="passed to reprolint check --jobs")
    parser.add_argument("--only", action="append", help="check only this owner/name")
    parser.add_argument("--from-dump", type=Path, action="append", default=[],
                        help="score the findings of an earlier run's dump instead of checking")
    parser.add_argument("--to-judge", type=Path,
                        help="write the findings without a verdict here (JSON, per repository)")
    parser.add_argument("--reprolint-at", metavar="COMMIT",
                        help="check with this project's code at COMMIT (exported), not the working tree")
    args = parser.parse_args(list(argv) if argv is not None else None)
    source, version, tag = None, f"working tree at {git_head()}", "worktree"
    if args.reprolint_at:
        source, full = reprolint_at(args.reprolint_at, args.work_root)
        version, tag = f"commit {full} (exported, --reprolint-at)", full[:7]
    dumped: dict[str, list[Finding]] = {}
    dump_headers: list[str] = []
    for path in args.from_dump:
        header, found = read_dump(path)
        dump_headers += header
        dumped.update(found)
        version = f"findings from {', '.join(map(str, args.from_dump))}"

    names = SETS if args.sets == "all" else (args.sets,)
    now = datetime.datetime.now(datetime.timezone.utc)
    command = "python bench/realworld/run.py --set " + args.sets
    if args.reprolint_at:
        command += f" --reprolint-at {args.reprolint_at}"
    header = [
        "# reprolint on public training repositories (bench/realworld; sets: LABELLING.md)",
        f"# date: {now:%Y-%m-%d %H:%M UTC}",
        f"# reprolint: {version}",
        f"# command: {command}",
        f"# cpus: {os.cpu_count()}",
    ] + [f"# from dump: {line.lstrip('# ')}" for line in dump_headers if "reprolint:" in line]
    body: list[str] = []
    summary: list[str] = []
    for name in names:
        evalset = load(name)
        runs = run_set(evalset, args, source, dumped if args.from_dump else None)
        findings = [f for run in runs for f in run.findings]
        scored = sample(findings) if evalset.sample_only else findings
        result = score(evalset, findings, scored)
        skipped = [r for r in runs if r.skipped]
        body += [""] + report_lines(evalset, result, len(scored))
        body += claim_lines(evalset, runs, args.work_root)
        if skipped:
            body += [f"  skipped: {r.repo.name}: {r.skipped}" for r in skipped]
        summary.append(summary_line(name, result))
        if args.to_judge and name != "dev":
            # a changed message is judged again, whole (the judge does not see the old verdict)
            to_judge(args.to_judge.with_suffix(f".{name}.json"), runs,
                     result.unjudged + result.message_changed)
        if not args.no_save and not args.from_dump:
            dumps = RESULTS / "dumps"
            dumps.mkdir(parents=True, exist_ok=True)
            with (dumps / f"{name}-{tag}.jsonl").open("w") as handle:
                handle.write(json.dumps({"header": header}) + "\n")
                for f in findings:
                    handle.write(json.dumps(f.__dict__) + "\n")
    text = "\n".join(header + ["", "## Summary", "", SUMMARY_HEADER] + summary + body) + "\n"
    print(text, end="")
    out = args.out
    if out is None and not args.no_save:
        out = RESULTS / f"realworld-{args.sets}-{now:%Y-%m-%d}-{tag}.txt"
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
        print(f"saved {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
