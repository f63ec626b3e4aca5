"""The three evaluation sets of bench/realworld and how a run of `check` is scored on each.

* ``dev``: the 26 repositories of ``manifest.toml``, labelled by this team and tuned
  against (``precision.toml``: TP/FP verdicts of findings; ``recall.toml``: problems found
  by reading entry points).
* ``frozen``: ``frozen/manifest.toml``, labelled blind by readers who never saw
  reprolint's output (``frozen/labels/*.toml``, see LABELLING.md), and the stratified
  sample of its findings judged blind (``frozen/verdicts/*.toml``). Reported in aggregate only: no file, line or message
  of a frozen repository appears in a report.
* ``B``: ten repositories labelled outside this team (``B/labels.json``: verdicts of
  reprolint 0.1.0's findings, and problems it missed), and blind judge rounds on the
  findings of later versions (``B/verdicts/*.toml``: verdicts only). Development data.

Every set is reduced to the same two lists, so that the figures compare side by side:
``Verdict`` (a judged finding: TP, TP* or FP, and whether its message is accurate) and
``Problem`` (a real problem a finding should point at).
"""

from __future__ import annotations

import json
import tomllib
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Optional

HERE = Path(__file__).resolve().parent

# Codes that speak about a whole program (a flag it never sets, a library it leaves out):
# such a finding may be anchored anywhere in the program, so a problem of these codes is
# found by any finding of the code that names the problem's entry point.
PROGRAM_CODES = frozenset(
    {"RPL105", "RPL301", "RPL302", "RPL303", "RPL304", "RPL305", "RPL306", "RPL307"}
)
LINE_SLACK = 3  # a finding within this many lines of a labelled line points at it
# Program-level codes that report other codes' sites as their related locations (the rule
# contract since issue 26: RPL301 lists the ops RPL201 would report one by one, and RPL201
# leaves those sites to it). Such a finding finds a problem of the covered code only
# through a related location.
COVERS = {"RPL301": frozenset({"RPL201"})}
VERDICTS = ("TP", "TP*", "FP")


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


@dataclass(frozen=True)
class Verdict:
    repo: str
    path: str
    cell: Optional[int]
    line: int
    code: str
    verdict: str  # TP | TP* | FP
    accurate: Optional[bool]  # None: not judged
    reason: str = ""
    slack: int = 0  # lines of tolerance when joining to a finding (B: 0.1.0's lines)
    # The message the judge read: its accuracy holds for that text only (None: not kept).
    message: Optional[str] = None


@dataclass(frozen=True)
class Problem:
    repo: str
    entry: str
    path: str
    line: int
    cell: Optional[int]
    codes: tuple[str, ...]  # codes, or prefixes such as "RPL1"
    program: bool
    confidence: str  # high | medium | low
    category: str
    what: str
    also: tuple[int, ...] = ()  # other lines of the same cause, same file
    scope: tuple[str, ...] = ()  # files the entry point runs (as the reader listed them)


@dataclass
class EvalSet:
    name: str
    repos: list[Repo]
    verdicts: list[Verdict]
    problems: list[Problem]
    entries: int  # entry points labelled
    blind: bool  # aggregate figures only
    sample_only: bool  # precision over the stratified sample (dev) or every judged finding
    notes: list[str] = field(default_factory=list)


def norm_path(path: str) -> str:
    path = path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path


def load_toml(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        return tomllib.load(handle)


def load_manifest(path: Path) -> list[Repo]:
    return [
        Repo(item["name"], item["commit"], item.get("kind", ""), tuple(item.get("paths", ["."])))
        for item in load_toml(path).get("repo", [])
    ]


def _cell(item: dict[str, Any]) -> Optional[int]:
    cell = item.get("cell")
    return None if cell is None else int(cell)


# --- the sets -----------------------------------------------------------------------


def load_dev(root: Path = HERE) -> EvalSet:
    verdicts = [
        Verdict(
            item["repo"], norm_path(item["path"]), _cell(item), int(item["line"]),
            item["code"], item["verdict"], None, item.get("reason", ""),
        )
        for item in load_toml(root / "precision.toml").get("label", [])
    ]
    problems, entries = [], 0
    for entry in load_toml(root / "recall.toml").get("entry", []):
        entries += 1
        for item in entry.get("problem", []):
            rule = item["rule"]
            problems.append(
                Problem(
                    entry["repo"], norm_path(entry["path"]), norm_path(item["path"]),
                    # `also_rules`: other codes that name the problem (LABELLING.md §6)
                    int(item.get("line", 0)), _cell(item), (rule, *item.get("also_rules", [])),
                    item.get("match", "line") == "program", "high", rule, item.get("what", ""),
                )
            )
    return EvalSet("dev", load_manifest(root / "manifest.toml"), verdicts, problems, entries,
                   blind=False, sample_only=True)


def blind_verdicts(folder: Path) -> list[Verdict]:
    """The verdicts of blind judge rounds, one ``<owner>+<name>.toml`` per repository
    (``[[verdict]]`` with the message the judge read, its accuracy and the reason)."""
    verdicts = []
    for path in sorted(folder.glob("*.toml")):
        repo = path.stem.replace("+", "/", 1)
        for item in load_toml(path).get("verdict", []):
            accurate = item.get("accurate")
            verdicts.append(
                Verdict(
                    repo, norm_path(item["path"]), _cell(item), int(item["line"]), item["code"],
                    item["verdict"], None if accurate is None else bool(accurate),
                    item.get("reason", ""), message=item.get("message"),
                )
            )
    return verdicts


def load_frozen(root: Path = HERE / "frozen") -> EvalSet:
    repos = load_manifest(root / "manifest.toml")
    names = {repo.name for repo in repos}
    problems: list[Problem] = []
    verdicts: list[Verdict] = []
    notes: list[str] = []
    entries = 0
    labelled = set()
    for path in sorted((root / "labels").glob("*.toml")):
        data = load_toml(path)
        repo = data.get("repo", "")
        if repo not in names:
            notes.append(f"{path.name}: repository not in the frozen manifest; ignored")
            continue
        labelled.add(repo)
        for entry in data.get("entry", []):
            entries += 1
            scope = tuple(norm_path(p) for p in entry.get("read", []))
            for item in entry.get("problem", []):
                codes = tuple(item.get("rules") or ["NONE"])
                problems.append(
                    Problem(
                        repo, norm_path(entry["path"]), norm_path(item["path"]),
                        int(item.get("line", 0)), _cell(item), codes,
                        item.get("match", "line") == "program"
                        or all(code in PROGRAM_CODES for code in codes),
                        str(item.get("confidence", "low")), str(item.get("category", "")),
                        str(item.get("what", "")), tuple(int(x) for x in item.get("also", [])),
                        scope,
                    )
                )
    verdicts.extend(blind_verdicts(root / "verdicts"))
    missing = sorted(names - labelled)
    if missing:
        notes.append(f"{len(missing)} repositories without labels yet")
    return EvalSet("frozen", repos, verdicts, problems, entries, blind=True, sample_only=True,
                   notes=notes)


def load_b(root: Path = HERE / "B") -> EvalSet:
    repos = load_manifest(root / "manifest.toml")
    short = {item["short"]: item["name"] for item in load_toml(root / "manifest.toml")["repo"]}
    data = json.loads((root / "labels.json").read_text())
    verdicts, problems = [], []
    for item in data.get("sample", []):
        if item.get("disputed"):  # our copy's disagreement, written beside the label
            continue
        repo = short[item["repo"]]
        verdict = Verdict(
            repo, norm_path(item["path"]), _cell(item), int(item["line"]), item["code"],
            item["verdict"], None, item.get("reason", ""), slack=LINE_SLACK,
        )
        verdicts.append(verdict)
        if item["verdict"] in ("TP", "TP*"):
            # A true finding of 0.1.0 is a real problem that a later version should keep.
            problems.append(
                Problem(
                    repo, norm_path(item["path"]), norm_path(item["path"]), int(item["line"]),
                    _cell(item), (item["code"],), item["code"] in PROGRAM_CODES,
                    "high" if item["verdict"] == "TP" else "low", item["code"],
                    item.get("reason", ""),
                )
            )
    # blind rounds on the findings of later versions that 0.1.0's sample did not judge:
    # verdicts only (what they call true is not a labelled problem)
    verdicts.extend(blind_verdicts(root / "verdicts"))
    for item in data.get("false_negatives", []):
        codes = tuple(item.get("codes", []))
        problems.append(
            Problem(
                short[item["repo"]], norm_path(item["path"]), norm_path(item["path"]),
                int(item["line"]), _cell(item), codes,
                all(any(p.startswith(c) for p in PROGRAM_CODES) for c in codes)
                and all(c in PROGRAM_CODES for c in codes),
                "high", "/".join(codes), item.get("what", ""),
            )
        )
    entries = len({(p.repo, p.entry) for p in problems})
    return EvalSet("B", repos, verdicts, problems, entries, blind=False, sample_only=False,
                   notes=["B: TP findings of 0.1.0 count as problems (TP* as low confidence); "
                          "labels joined within 3 lines (0.1.0's line numbers)"])


def code_cell_numbers(evalset: EvalSet, repo: str, tree: Path) -> None:
    """Renumber the notebook cells of ``repo``'s frozen labels as `check` numbers them.

    LABELLING.md has readers count every cell from 0 (markdown too: what a reader sees);
    `check` numbers code cells only, from 1. The notebook in the exported ``tree`` gives
    the map; a label on a cell that is not code keeps no match (-1).
    """
    if evalset.name != "frozen":
        return
    maps: dict[str, dict[int, int]] = {}
    for i, p in enumerate(evalset.problems):
        if p.repo != repo or p.cell is None:
            continue
        if p.path not in maps:
            try:
                cells = json.loads((tree / p.path).read_text(encoding="utf-8"))["cells"]
            except (OSError, ValueError, KeyError, TypeError):
                cells = []
            codes = [n for n, c in enumerate(cells) if isinstance(c, dict) and c.get("cell_type") == "code"]
            maps[p.path] = {index: number for number, index in enumerate(codes, 1)}
        evalset.problems[i] = replace(p, cell=maps[p.path].get(p.cell, -1))


def load(name: str) -> EvalSet:
    return {"dev": load_dev, "frozen": load_frozen, "B": load_b}[name]()


# --- joining findings to labels ------------------------------------------------------


def code_matches(code: str, wanted: str) -> bool:
    return code == wanted or (len(wanted) < len("RPL101") and code.startswith(wanted))


def _near(path: str, line: int, cell: Optional[int], where: str, lines: Iterable[int],
          wcell: Optional[int], slack: int) -> bool:
    return path == where and cell == wcell and any(abs(line - x) <= slack for x in lines)


def verdict_of(finding: Finding, index: dict[tuple, list[Verdict]]) -> Optional[Verdict]:
    """The verdict that judges `finding`: exact location first, then within the slack.
    Of several at one location, the one that judged this message, else the latest."""
    exact = [v for v in index.get((finding.repo, finding.code), ())
             if v.path == finding.path and v.cell == finding.cell and v.line == finding.line]
    if exact:
        same = [v for v in exact if v.message == finding.message]
        return (same or exact)[-1]
    best = None
    for v in index.get((finding.repo, finding.code), ()):
        if not v.slack:
            continue
        if v.code in PROGRAM_CODES and (
            v.path == finding.path or v.path in (finding.entry_points or ())
        ):
            return v
        if _near(finding.path, finding.line, finding.cell, v.path, [v.line], v.cell, v.slack):
            if best is None or abs(v.line - finding.line) < abs(best.line - finding.line):
                best = v
    return best


def index_verdicts(verdicts: Iterable[Verdict]) -> dict[tuple, list[Verdict]]:
    index: dict[tuple, list[Verdict]] = defaultdict(list)
    for v in verdicts:
        index[(v.repo, v.code)].append(v)
    return index


def is_found(problem: Problem, findings: Iterable[Finding], slack: int = LINE_SLACK) -> bool:
    lines = (problem.line, *problem.also)
    for f in findings:
        if not any(code_matches(f.code, c) for c in problem.codes):
            covered = COVERS.get(f.code, frozenset())
            if any(c in covered for c in problem.codes) and any(
                _near(p, l, c, problem.path, lines, problem.cell, slack) for p, l, c in f.related
            ):
                return True
            continue
        if problem.program:
            # Anywhere in the program: a finding that names the entry point, or one
            # anchored in (or relating to) the problem's file.
            if f.entry_points and problem.entry in f.entry_points:
                return True
            if f.path == problem.path or any(p == problem.path for p, _, _ in f.related):
                return True
            if not f.entry_points and f.path in {problem.entry, *problem.scope}:
                return True
        if _near(f.path, f.line, f.cell, problem.path, lines, problem.cell, slack):
            return True
        if any(_near(p, l, c, problem.path, lines, problem.cell, slack) for p, l, c in f.related):
            return True
    return False


# --- scores -------------------------------------------------------------------------


@dataclass
class Score:
    """Figures of one run on one set."""

    findings: int = 0
    judged: Counter = field(default_factory=Counter)  # verdict -> count
    accurate: Counter = field(default_factory=Counter)  # True/False -> count
    per_rule: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    per_repo: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    recall_total: Counter = field(default_factory=Counter)  # rule -> high-confidence problems
    recall_found: Counter = field(default_factory=Counter)
    miss_categories: Counter = field(default_factory=Counter)
    misses: list[Problem] = field(default_factory=list)
    fps: list[tuple[Finding, Verdict]] = field(default_factory=list)
    unjudged: list[Finding] = field(default_factory=list)
    # judged, but the message changed since: its accuracy is not counted until judged again
    message_changed: list[Finding] = field(default_factory=list)
    all_problems: Counter = field(default_factory=Counter)  # confidence -> count


def ratio(num: float, den: float) -> str:
    return f"{num / den:.2f}" if den else "  - "


def score(evalset: EvalSet, findings: list[Finding], scored: list[Finding]) -> Score:
    """Score `findings` (every finding of the run) on `evalset`.

    `scored` is the part of the findings whose verdicts count for precision: the
    stratified sample for the dev set, every finding for the others (only those with a
    verdict count; the rest are listed as unjudged).
    """
    result = Score(findings=len(findings))
    for f in findings:
        result.per_rule[f.code]["findings"] += 1
        result.per_repo[f.repo]["findings"] += 1
    index = index_verdicts(evalset.verdicts)
    for f in scored:
        v = verdict_of(f, index)
        if v is None:
            result.unjudged.append(f)
            continue
        result.judged[v.verdict] += 1
        result.per_rule[f.code][v.verdict] += 1
        result.per_repo[f.repo][v.verdict] += 1
        if v.message is not None and v.message != f.message:
            result.message_changed.append(f)
        elif v.accurate is not None:
            result.accurate[v.accurate] += 1
            result.per_rule[f.code]["accurate" if v.accurate else "inaccurate"] += 1
        if v.verdict == "FP":
            result.fps.append((f, v))
    by_repo: dict[str, list[Finding]] = defaultdict(list)
    for f in findings:
        by_repo[f.repo].append(f)
    for p in evalset.problems:
        result.all_problems[p.confidence] += 1
        if p.confidence != "high" or p.codes == ("NONE",):
            continue
        rule = p.codes[0]
        result.recall_total[rule] += 1
        result.per_repo[p.repo]["problems"] += 1
        if is_found(p, by_repo.get(p.repo, ())):
            result.recall_found[rule] += 1
            result.per_repo[p.repo]["found"] += 1
        else:
            result.misses.append(p)
            result.miss_categories[f"{rule} {p.category}".strip()] += 1
    return result


def strict(counts: Counter) -> str:
    return ratio(counts["TP"], sum(counts[v] for v in VERDICTS))


def lenient(counts: Counter) -> str:
    return ratio(counts["TP"] + counts["TP*"], sum(counts[v] for v in VERDICTS))


def summary_line(name: str, s: Score) -> str:
    judged = sum(s.judged[v] for v in VERDICTS)
    found, total = sum(s.recall_found.values()), sum(s.recall_total.values())
    return (
        f"{name:7} {s.findings:8} {judged:6} {strict(s.judged):>6} {lenient(s.judged):>7} "
        f"{ratio(s.accurate[True], s.accurate[True] + s.accurate[False]):>8} "
        f"{found:5}/{total:<5} {ratio(found, total):>6}"
    )


SUMMARY_HEADER = (
    f"{'set':7} {'findings':>8} {'judged':>6} {'strict':>6} {'lenient':>7} {'accurate':>8} "
    f"{'found/problems':>14} {'recall':>6}"
)


def report_lines(evalset: EvalSet, s: Score, sample_size: int) -> list[str]:
    lines = [f"## Set {evalset.name}", ""]
    lines.append(
        f"{len(evalset.repos)} repositories, {evalset.entries} entry points labelled, "
        f"{sum(s.all_problems.values())} problems ({s.all_problems['high']} high confidence); "
        f"{len(evalset.verdicts)} verdicts"
    )
    what = "the stratified sample" if evalset.sample_only else "every finding"
    lines.append(f"precision over {what} ({sample_size} findings, {len(s.unjudged)} without a verdict, "
                 f"{len(s.message_changed)} whose message changed since judged: accuracy not counted)")
    lines += [""] + [SUMMARY_HEADER, summary_line(evalset.name, s)] + [""]
    # RPL900 (a file that does not parse) says what the tool could not read, never that
    # the code has a reproducibility problem: shown beside, not instead of, the figure
    # above
    rest = Counter()
    for rule, counts in s.per_rule.items():
        if rule != "RPL900":
            rest.update({v: counts[v] for v in VERDICTS})
    if s.per_rule.get("RPL900") and sum(s.per_rule["RPL900"][v] for v in VERDICTS):
        lines += [
            f"without RPL900 (parse errors): strict {strict(rest)}, lenient {lenient(rest)} "
            f"over {sum(rest[v] for v in VERDICTS)} judged", "",
        ]
    lines.append("### Per rule")
    lines.append(
        f"{'rule':7} {'findings':>8} {'TP':>4} {'TP*':>4} {'FP':>4} {'strict':>6} {'lenient':>7} "
        f"{'accurate':>8} {'problems':>8} {'found':>5} {'recall':>6}"
    )
    for code in sorted(set(s.per_rule) | set(s.recall_total)):
        c = s.per_rule.get(code, Counter())
        acc = ratio(c["accurate"], c["accurate"] + c["inaccurate"])
        lines.append(
            f"{code:7} {c['findings']:8} {c['TP']:4} {c['TP*']:4} {c['FP']:4} {strict(c):>6} "
            f"{lenient(c):>7} {acc:>8} {s.recall_total[code]:8} {s.recall_found[code]:5} "
            f"{ratio(s.recall_found[code], s.recall_total[code]):>6}"
        )
    lines += ["", "### Per repository"]
    lines.append(
        f"{'repository':48} {'findings':>8} {'judged':>6} {'strict':>6} {'lenient':>7} "
        f"{'problems':>8} {'found':>5} {'recall':>6}"
    )
    for repo in evalset.repos:
        c = s.per_repo.get(repo.name, Counter())
        lines.append(
            f"{repo.name:48} {c['findings']:8} {sum(c[v] for v in VERDICTS):6} {strict(c):>6} "
            f"{lenient(c):>7} {c['problems']:8} {c['found']:5} {ratio(c['found'], c['problems']):>6}"
        )
    lines += ["", "### Misses by rule and category (high-confidence problems not found)"]
    lines += [f"  {n:4}  {cat}" for cat, n in s.miss_categories.most_common()] or ["  none"]
    if not evalset.blind:
        lines += ["", f"### Misses ({len(s.misses)})"]
        lines += [
            f"  {'/'.join(p.codes)} {p.repo}:{p.path}{'' if p.cell is None else f'[cell {p.cell}]'}:"
            f"{p.line} ({'program' if p.program else 'line'}; entry {p.entry}) {p.what}"
            for p in s.misses
        ]
        lines += ["", f"### False positives ({len(s.fps)})"]
        lines += [f"  {f.code} {f.repo}:{f.path}:{f.line}  {v.reason}" for f, v in s.fps]
        if s.unjudged and evalset.sample_only:
            lines += ["", f"### Needs a verdict ({len(s.unjudged)})"]
            lines += [f"  {f.code} {f.repo}:{f.path}:{f.line}  {f.message}" for f in s.unjudged]
    lines += [f"  note: {note}" for note in evalset.notes]
    return lines
