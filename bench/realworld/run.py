"""Score `reprolint check` on public training repositories (issue 13): precision and recall.

    python bench/realworld/run.py                       # export, check, score, print
    python bench/realworld/run.py --save                # ... and write bench/results/realworld-DATE.txt
    python bench/realworld/run.py --out FILE            # ... and write FILE
    python bench/realworld/run.py --fetch-root /work/.mirror --jobs 1

Inputs, all in this folder:

* ``manifest.toml``: ``[[repo]]`` name, commit, kind, optional ``paths``.
* ``precision.toml``: ``[[label]]`` repo, path, line, code, verdict ("TP" or "FP"),
  reason; optional ``cell`` for notebook findings. A label joins a finding on
  (repo, path, cell, line, code), not on the message, so rewording keeps it.
* ``recall.toml``: ``[[entry]]`` repo, commit, path (the entry-point script), and its
  ``[[entry.problem]]`` path, line, rule, match ("line" or "program"), what; optional
  ``cell`` for a notebook. ``rule = "NONE"`` marks a real problem no rule covers: listed
  as a gap, left out of the overall recall.

Each repository is read from a bare mirror ``<fetch-root>/<owner>+<name>/repo`` (what the
``fetch`` tool brings) and exported at its pinned commit into ``<work-root>/<owner>+<name>/``:
the ``.py`` and ``.ipynb`` files and the configuration files the checker reads, nothing else
(mirrors may lack large blobs such as images, so ``git archive`` is not used). A missing
mirror or commit is skipped with a message. Then ``reprolint check --output-format json
--no-cache --exit-zero`` runs over the tree (the installed CLI, as a subprocess of this
interpreter) and the findings are scored:

* precision: a stratified random sample of the findings, fixed by a hash of
  (repo, path, code, line, message) rather than by a random generator, so findings that
  did not change keep their place in the order and unrelated changes do not reshuffle it.
  Each rule that fires gets its share of 150 by its number of findings, at most 25, at
  least a floor raised until the sample holds 150 (every rule is represented). Unlabelled
  sampled findings are listed as "needs label".
* recall: a problem is found when a finding of its rule has the problem's path and line
  as its primary location or among its ``related`` locations; for ``match = "program"``,
  when a finding of its rule names the entry in ``entry_points`` (or, with no
  ``entry_points`` in the JSON, is in the problem's file).
* totals: findings per repository and per rule.

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
import tomllib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RESULTS = ROOT / "bench" / "results"
SUFFIXES = (".py", ".ipynb")
CONFIG_NAMES = ("pyproject.toml", "setup.cfg", "reprolint.toml")
SAMPLE_MIN = 150
SAMPLE_CAP = 25
MARKER = ".realworld-commit"
NO_RULE = "NONE"  # recall.toml: a real problem that no rule covers


@dataclass(frozen=True)
class Repo:
    name: str
    commit: str
    kind: str
    paths: tuple[str, ...] = (".",)

    @property
    def slug(self) -> str:
        return self.name.replace("/", "+")


@dataclass(frozen=True)
class Finding:
    repo: str
    code: str
    path: str
    line: int
    cell: Optional[int]
    message: str
    related: tuple[tuple[str, int, Optional[int]], ...] = ()  # (path, line, cell)
    entry_points: Optional[tuple[str, ...]] = None

    @property
    def key(self) -> tuple[str, str, Optional[int], int, str]:
        return (self.repo, self.path, self.cell, self.line, self.code)

    @property
    def order(self) -> str:
        text = "\0".join([self.repo, self.path, self.code, str(self.line), self.message])
        return hashlib.sha256(text.encode()).hexdigest()

    def where(self) -> str:
        cell = f"[cell {self.cell}]" if self.cell is not None else ""
        return f"{self.repo}:{self.path}{cell}:{self.line}"


@dataclass
class RepoRun:
    repo: Repo
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    skipped: str = ""


# --- inputs -------------------------------------------------------------------------


def load_toml(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        return tomllib.load(handle)


def load_manifest(path: Path) -> list[Repo]:
    repos = []
    for item in load_toml(path).get("repo", []):
        paths = tuple(item.get("paths", ["."]))
        repos.append(Repo(item["name"], item["commit"], item["kind"], paths))
    return repos


def norm_path(path: str) -> str:
    path = path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path


# --- export and check ---------------------------------------------------------------


def export(repo: Repo, fetch_root: Path, work_root: Path) -> tuple[Optional[Path], str]:
    """The exported tree of `repo` at its commit, or None and why not."""
    git_dir = fetch_root / repo.slug / "repo"
    if not git_dir.is_dir():
        return None, f"no mirror at {git_dir} (fetch github:{repo.name} first)"
    dest = work_root / repo.slug
    marker = dest / MARKER
    if marker.exists() and marker.read_text().strip() == repo.commit:
        return dest, ""
    git = ["git", "--git-dir", str(git_dir)]
    listing = subprocess.run(
        [*git, "ls-tree", "-r", "-z", repo.commit], capture_output=True
    )
    if listing.returncode != 0:
        return None, f"commit {repo.commit[:12]} not in {git_dir}"
    wanted = []
    for record in listing.stdout.split(b"\0"):
        if not record:
            continue
        meta, _, name = record.partition(b"\t")
        mode, kind, sha = meta.split()
        path = name.decode("utf-8", "surrogateescape")
        base = path.rsplit("/", 1)[-1]
        if kind == b"blob" and mode != b"120000" and (
            path.endswith(SUFFIXES) or base in CONFIG_NAMES
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


# --- scoring ------------------------------------------------------------------------


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
        chosen += sorted(by_rule[code], key=lambda f: f.order)[: quota[code]]
    return chosen


def load_labels(path: Path) -> dict[tuple, dict[str, Any]]:
    labels = {}
    for item in load_toml(path).get("label", []):
        cell = item.get("cell")
        key = (item["repo"], norm_path(item["path"]), cell, int(item["line"]), item["code"])
        labels[key] = item
    return labels


def ratio(num: int, den: int) -> str:
    return f"{num / den:.2f}" if den else "  - "


@dataclass
class Recall:
    total: Counter = field(default_factory=Counter)
    found: Counter = field(default_factory=Counter)
    misses: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def score_recall(path: Path, runs: dict[str, RepoRun]) -> Recall:
    result = Recall()
    for entry in load_toml(path).get("entry", []):
        repo, entry_path = entry["repo"], norm_path(entry["path"])
        run = runs.get(repo)
        if run is None or run.skipped:
            result.notes.append(f"{repo}: not checked in this run; entry {entry_path} skipped")
            continue
        if entry.get("commit") and entry["commit"] != run.repo.commit:
            result.notes.append(
                f"{repo}: recall.toml commit {entry['commit'][:12]} differs from the "
                f"manifest's {run.repo.commit[:12]}"
            )
        by_rule: dict[str, list[Finding]] = defaultdict(list)
        for finding in run.findings:
            by_rule[finding.code].append(finding)
        for problem in entry.get("problem", []):
            rule, where = problem["rule"], norm_path(problem["path"])
            line, how = int(problem.get("line", 0)), problem.get("match", "line")
            cell = problem.get("cell")
            candidates = by_rule.get(rule, [])
            if how == "program":
                hit = any(
                    entry_path in f.entry_points
                    if f.entry_points is not None
                    else f.path == where
                    for f in candidates
                )
            else:
                hit = any(
                    (f.path == where and f.line == line and f.cell == cell)
                    or (where, line, cell) in f.related
                    for f in candidates
                )
            result.total[rule] += 1
            if hit:
                result.found[rule] += 1
            else:
                what = problem.get("what", "")
                result.misses.append(
                    f"{rule} {repo}:{where}:{line} ({how}; entry {entry_path}) {what}"
                )
    return result


def report(
    runs: list[RepoRun],
    labels: dict[tuple, dict[str, Any]],
    recall: Recall,
    header: list[str],
) -> str:
    lines = list(header)
    findings = [f for run in runs for f in run.findings]
    per_rule = Counter(f.code for f in findings)
    rules = sorted(per_rule)

    lines += ["", "## Totals: findings per repository", ""]
    lines.append(f"{'repository':45} {'kind':14} {'files':>5} {'findings':>8} {'time s':>7}")
    for run in runs:
        if run.skipped:
            lines.append(f"{run.repo.name:45} {run.repo.kind:14} skipped: {run.skipped}")
            continue
        top = ", ".join(f"{c} {n}" for c, n in Counter(f.code for f in run.findings).most_common(4))
        files = len({f.path for f in run.findings})
        lines.append(
            f"{run.repo.name:45} {run.repo.kind:14} {files:5} {len(run.findings):8} "
            f"{run.seconds:7.1f}  {top}"
        )
    lines.append(f"{'all':45} {'':14} {'':5} {len(findings):8} {sum(r.seconds for r in runs):7.1f}")

    chosen = sample(findings)
    verdicts: dict[str, Counter] = defaultdict(Counter)
    unlabelled, fps = [], []
    for finding in chosen:
        label = labels.get(finding.key)
        if label is None:
            unlabelled.append(finding)
            continue
        verdicts[finding.code][label["verdict"]] += 1
        if label["verdict"] == "FP":
            fps.append((finding, label.get("reason", "")))

    lines += ["", "## Precision (stratified sample, hash-ordered; labels in precision.toml)", ""]
    # Beside the sample: every finding that happens to be labelled (whole rules were
    # labelled where that was cheap), as a check on the sample's figure.
    every: dict[str, Counter] = defaultdict(Counter)
    for finding in findings:
        label = labels.get(finding.key)
        if label is not None:
            every[finding.code][label["verdict"]] += 1
    lines.append(
        f"{'rule':8} {'findings':>8} {'sampled':>7} {'TP':>4} {'FP':>4} {'todo':>4} "
        f"{'precision':>9}   {'labelled':>8} {'precision':>9}"
    )
    tp_all = fp_all = 0
    weighted = weight = 0.0
    for code in rules:
        tp, fp = verdicts[code]["TP"], verdicts[code]["FP"]
        taken = sum(1 for f in chosen if f.code == code)
        tp_all, fp_all = tp_all + tp, fp_all + fp
        if tp + fp:
            weighted += per_rule[code] * tp / (tp + fp)
            weight += per_rule[code]
        known = every[code]["TP"] + every[code]["FP"]
        lines.append(
            f"{code:8} {per_rule[code]:8} {taken:7} {tp:4} {fp:4} {taken - tp - fp:4} "
            f"{ratio(tp, tp + fp):>9}   {known:8} {ratio(every[code]['TP'], known):>9}"
        )
    known_tp = sum(c["TP"] for c in every.values())
    known = known_tp + sum(c["FP"] for c in every.values())
    lines.append(
        f"{'all':8} {len(findings):8} {len(chosen):7} {tp_all:4} {fp_all:4} "
        f"{len(unlabelled):4} {ratio(tp_all, tp_all + fp_all):>9}   {known:8} {ratio(known_tp, known):>9}"
    )
    if weight:
        lines.append(
            f"Precision weighted by each rule's share of all findings (an estimate of what a "
            f"user sees): {weighted / weight:.2f}"
        )
    lines += ["", f"False positives in the sample ({len(fps)}):"]
    lines += [f"  {f.code} {f.where()}  {reason}" for f, reason in fps]
    if unlabelled:
        lines += ["", f"Needs label ({len(unlabelled)}):"]
        lines += [f"  {f.code} {f.where()}  {f.message}" for f in unlabelled]

    lines += ["", "## Recall (hand-listed problems in recall.toml)", ""]
    if not recall.total:
        lines.append("no recall.toml entries scored")
    else:
        lines.append(f"{'rule':8} {'problems':>8} {'found':>5} {'recall':>6}")
        scored = sorted(code for code in recall.total if code != NO_RULE)
        for code in scored:
            lines.append(
                f"{code:8} {recall.total[code]:8} {recall.found[code]:5} "
                f"{ratio(recall.found[code], recall.total[code]):>6}"
            )
        total = sum(recall.total[code] for code in scored)
        found = sum(recall.found[code] for code in scored)
        lines.append(f"{'all':8} {total:8} {found:5} {ratio(found, total):>6}")
        if recall.total[NO_RULE]:
            lines.append(
                f"{NO_RULE:8} {recall.total[NO_RULE]:8}     -      -  "
                "(real problems no rule covers; not in the overall figure)"
            )
        misses = [m for m in recall.misses if not m.startswith(NO_RULE)]
        gaps = [m for m in recall.misses if m.startswith(NO_RULE)]
        lines += ["", f"Misses ({len(misses)}):"]
        lines += [f"  {miss}" for miss in misses]
        if gaps:
            lines += ["", f"Gaps in the rule set ({len(gaps)}):"]
            lines += [f"  {gap}" for gap in gaps]
    lines += [f"  note: {note}" for note in recall.notes]

    lines += ["", "## Totals: findings per rule", ""]
    lines += [f"{code:8} {per_rule[code]:6}" for code in rules]

    # Issue 13's bar, first in the report: sample precision >= 0.90 overall and >= 0.85
    # for every rule with at least 10 findings; recall >= 0.90.
    weak = [
        f"{code} {verdicts[code]['TP'] / (verdicts[code]['TP'] + verdicts[code]['FP']):.2f}"
        for code in rules
        if per_rule[code] >= 10
        and verdicts[code]["TP"] + verdicts[code]["FP"]
        and verdicts[code]["TP"] / (verdicts[code]["TP"] + verdicts[code]["FP"]) < 0.85
    ]
    scored = [code for code in recall.total if code != NO_RULE]
    r_total = sum(recall.total[c] for c in scored)
    r_found = sum(recall.found[c] for c in scored)
    summary = [
        "",
        "## Summary",
        "",
        f"findings: {len(findings)} in {sum(1 for r in runs if not r.skipped)} repositories",
        f"precision (sample of {len(chosen)}, {len(unlabelled)} unlabelled): "
        f"{ratio(tp_all, tp_all + fp_all)}   target >= 0.90",
        f"rules with >= 10 findings under 0.85: {', '.join(weak) or 'none'}",
        f"recall ({r_total} hand-listed problems): {ratio(r_found, r_total)}   target >= 0.90",
    ]
    lines[len(header):len(header)] = summary
    return "\n".join(lines) + "\n"


def git_head() -> str:
    done = subprocess.run(
        ["git", "-C", str(ROOT), "log", "-1", "--format=%H %cd", "--date=iso"],
        capture_output=True,
        text=True,
    )
    return done.stdout.strip() or "unknown"


def main(argv: Optional[Iterable[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fetch-root", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--work-root", type=Path, default=Path("/tmp/realworld"))
    parser.add_argument("--manifest", type=Path, default=HERE / "manifest.toml")
    parser.add_argument("--labels", type=Path, default=HERE / "precision.toml")
    parser.add_argument("--recall", type=Path, default=HERE / "recall.toml")
    parser.add_argument("--out", type=Path, help="write the report to this file too")
    parser.add_argument(
        "--save", action="store_true", help="write bench/results/realworld-DATE.txt"
    )
    parser.add_argument("--jobs", type=int, help="passed to reprolint check --jobs")
    parser.add_argument("--only", action="append", help="check only this owner/name")
    parser.add_argument(
        "--dump", type=Path, help="write every finding as JSON lines here (for labelling)"
    )
    parser.add_argument(
        "--from-dump",
        type=Path,
        help="score the findings of an earlier --dump instead of checking again",
    )
    parser.add_argument(
        "--reprolint-at",
        metavar="COMMIT",
        help="check with this project's code at COMMIT (exported), not the working tree",
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    source, version = None, f"working tree at {git_head()}"
    if args.reprolint_at:
        source, full = reprolint_at(args.reprolint_at, args.work_root)
        version = f"commit {full} (exported, --reprolint-at)"

    repos = load_manifest(args.manifest)
    if args.only:
        repos = [r for r in repos if r.name in args.only]
    runs: list[RepoRun] = []
    dumped: dict[str, list[Finding]] = defaultdict(list)
    dumped_header: list[str] = []
    if args.from_dump:
        for text in args.from_dump.read_text().splitlines():
            item = json.loads(text)
            if "header" in item:
                dumped_header = item["header"]
                continue
            item["related"] = tuple((*r, None)[:3] for r in item["related"])
            if item["entry_points"] is not None:
                item["entry_points"] = tuple(item["entry_points"])
            dumped[item["repo"]].append(Finding(**item))
        version = f"findings from {args.from_dump}"
    for repo in repos:
        run = RepoRun(repo)
        runs.append(run)
        if args.from_dump:
            run.findings = dumped.get(repo.name, [])
            continue
        tree, why = export(repo, args.fetch_root, args.work_root)
        if tree is None:
            run.skipped = why
            print(f"skip {repo.name}: {why}", file=sys.stderr)
            continue
        run.findings, run.seconds = check(repo, tree, args.jobs, source)
        print(f"{repo.name}: {len(run.findings)} findings in {run.seconds:.1f} s", file=sys.stderr)

    command = "python bench/realworld/run.py"
    if args.reprolint_at:
        command += f" --reprolint-at {args.reprolint_at}"
    if args.jobs:
        command += f" --jobs {args.jobs}"
    header = [
        "# reprolint on public training repositories (bench/realworld, issue 13)",
        f"# date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}",
        f"# reprolint: {version}",
        f"# command: {command}",
        f"# repositories: {sum(1 for r in runs if not r.skipped)} checked of {len(runs)} "
        f"in the manifest; cpus: {os.cpu_count()}",
    ]
    if args.from_dump:
        header = dumped_header + [f"# scored again from {args.from_dump} (--from-dump)"]
    if args.dump:
        with args.dump.open("w") as handle:
            handle.write(json.dumps({"header": header}) + "\n")
            for run in runs:
                for f in run.findings:
                    handle.write(json.dumps(f.__dict__) + "\n")
    text = report(runs, load_labels(args.labels), score_recall(args.recall, {r.repo.name: r for r in runs}), header)
    print(text, end="")
    out = args.out
    if args.save and out is None:
        out = RESULTS / f"realworld-{datetime.date.today():%Y-%m-%d}.txt"
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
        print(f"saved {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
