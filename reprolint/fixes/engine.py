"""The fix engine: apply every applicable fix whose edits do not overlap an already
chosen one, check the result again, until nothing applicable is left (at most
``MAX_ROUNDS`` rounds), and report what changed.

Planning (which fix each finding gets) is each rule's own (see :mod:`reprolint.fixing`);
the edits, the files and the notebooks are :mod:`reprolint.fixes.edits`,
:mod:`reprolint.fixes.files` and :mod:`reprolint.fixes.notebook_edits`.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence

from reprolint._gc import cycle_collection_paused
from reprolint.fixes.edits import FixError, apply_edits, check_parses, overlaps
from reprolint.fixes.files import FileChange, SourceFile, read_source
from reprolint.fixes.notebook_edits import notebook_with_program, read_notebook_source
from reprolint.fixes.planning import FIX_PROBLEMS
from reprolint.model import Applicability, Diagnostic, Edit, Fix

if TYPE_CHECKING:
    from reprolint.config import Settings

__all__ = ["MAX_ROUNDS", "FixReport", "PlannedFix", "fix_files", "fix_texts", "summary"]

MAX_ROUNDS = 8


@dataclass(frozen=True)
class PlannedFix(Fix):
    """A fix as planned for one diagnostic: ``changes`` apply to the file ``path``.

    ``edits`` (what JSON and SARIF show, in the diagnostic's own file) equals
    ``changes`` when the fix edits the diagnostic's file, and is empty when it edits
    another one (an RPL101 draw in ``model.py`` is fixed at the entry point).
    """

    path: str = ""
    changes: tuple[Edit, ...] = ()
    # The same fix in other files: a finding in a module that several programs run
    # (a trainer shared by three entry points) is fixed at each entry point.
    more: tuple[tuple[str, tuple[Edit, ...]], ...] = ()

    @property
    def file_changes(self) -> tuple[tuple[str, tuple[Edit, ...]], ...]:
        """(path, edits) for every file the fix changes."""
        return tuple((p, c) for p, c in ((self.path, self.changes), *self.more) if c)


@dataclass
class FixReport:
    """What a fix run changed (or would change) and what is left."""

    changes: list[FileChange]
    remaining: list[Diagnostic]
    unsafe_skipped: int
    problems: list[str] = field(default_factory=list)
    files_checked: int = 0
    converged: bool = True
    not_written: int = 0  # `fix --write`: changed files that could not be written
    tests_left_out: int = 0  # modules left out as tests (the summary says)

    @property
    def fixed(self) -> int:
        return sum(c.count for c in self.changes)

    @property
    def manual(self) -> int:
        return len(self.remaining) - self.unsafe_skipped


def _allowed(fix: Optional[Fix], unsafe: bool) -> bool:
    if not isinstance(fix, PlannedFix) or not fix.file_changes:
        return False
    if fix.applicability is Applicability.SAFE:
        return True
    return unsafe and fix.applicability is Applicability.UNSAFE


def _analyse(text: str, path: str) -> Any:
    """``analyse_source``; a notebook's program (its code cells joined) is an entry point."""
    from reprolint.api import analyse_source

    analysis = analyse_source(text, path)
    if path.endswith(".ipynb") and analysis.facts is not None:
        analysis.facts.top_level_work = True  # run top to bottom, as analyse_notebook says
    return analysis


def _reuse(analysed: Optional[Mapping[str, Any]], path: str, text: str) -> Any:
    """The caller's analysis of ``text``, when it has one of exactly this text (a
    notebook's analysis maps lines to cells, which fixing must not: never reused)."""
    analysis = (analysed or {}).get(path)
    if analysis is None or analysis.source != text or analysis.cells is not None:
        return None
    return analysis


def _identity(d: Diagnostic, texts: Mapping[str, str]) -> tuple[str, str, str]:
    """A finding's identity across rounds (its span moves when lines are added above
    it; its line's text stays)."""
    lines = texts.get(d.path, "").splitlines()
    line = lines[d.span.start_line - 1].strip() if 0 < d.span.start_line <= len(lines) else ""
    return d.path, d.code, line


@cycle_collection_paused()  # parsing each round: see reprolint._gc
def fix_texts(
    texts: Mapping[str, str],
    settings: "Settings",
    roots: Sequence[str],
    unsafe: bool = False,
    analysed: Optional[Mapping[str, Any]] = None,
    tests_left_out: Optional[list[int]] = None,
) -> tuple[dict[str, str], dict[str, dict[str, int]], list[Diagnostic], list[str], bool]:
    """Fix in-memory sources (path -> text) to convergence.

    ``analysed``: path -> a ``FileAnalysis`` already made of that very text (the
    language server keeps one per file); used instead of parsing the file again. ``tests_left_out``, when given, gets
    the number of modules left out as tests.

    Returns the new texts, problems fixed per file and code, the diagnostics left, the
    problems met (dropped fixes) and whether the rounds converged.

    What is counted is the findings that had an applicable fix at the start and whose
    fix was applied or that are gone at the end (another fix resolved them), each once,
    in the first changed file of its fix: `fix` counts what `check` called fixable. A
    finding that a fix creates and a later round fixes (a seeding line added inside a
    guarded `if`) is no problem the user had and is not counted.
    """
    from reprolint.api import diagnose_analyses, count_tests_left_out

    current = dict(texts)
    analyses = {path: _reuse(analysed, path, text) or _analyse(text, path) for path, text in current.items()}
    if tests_left_out is not None:
        tests_left_out.append(count_tests_left_out(list(analyses.values()), settings, roots))
    fixed: dict[str, dict[str, int]] = {}
    problems: list[str] = []
    token = FIX_PROBLEMS.set(problems)
    converged = False
    original: Optional[list[tuple[tuple[str, str, str], Diagnostic]]] = None
    applied: Counter[tuple[str, str, str]] = Counter()
    try:
        for _ in range(MAX_ROUNDS):
            diagnostics = diagnose_analyses(list(analyses.values()), settings, list(roots))
            if original is None:
                original = [(_identity(d, current), d) for d in diagnostics if _allowed(d.fix, unsafe)]
            # Per file: groups of identical edits and the diagnostics they fix. A fix
            # that changes several files is taken whole or not at all in a round.
            chosen: dict[str, list[tuple[tuple[Edit, ...], list[tuple[Diagnostic, bool, Any]]]]] = {}
            for d in diagnostics:
                if not _allowed(d.fix, unsafe):
                    continue
                assert isinstance(d.fix, PlannedFix)
                places = []
                for path, changes in d.fix.file_changes:
                    groups = chosen.setdefault(path, [])
                    same = next((g for g in groups if g[0] == changes), None)
                    if same is None and any(overlaps(g[0], changes) for g in groups):
                        places = None
                        break
                    places.append((groups, same, changes))
                if places is None:
                    continue
                for i, (groups, same, changes) in enumerate(places):
                    entry = (d, i == 0, _identity(d, current))  # counted at the end
                    if same is not None:
                        same[1].append(entry)
                    else:
                        groups.append((changes, [entry]))
            chosen = {path: groups for path, groups in chosen.items() if groups}
            if not chosen:
                converged = True
                break
            for path, groups in chosen.items():
                edits = [e for changes, _ in groups for e in changes]
                new = apply_edits(current[path], edits)
                try:
                    check_parses(new, current[path], path, libcst_too=False)
                    analysis = _analyse(new, path)
                    if analysis.error is not None:  # libcst's parse of the result
                        raise FixError(f"the fixed code would not parse: {analysis.error.reason}")
                except FixError as exc:
                    problems.append(f"{path}: fixes dropped: {exc}")
                    continue
                current[path] = new
                analyses[path] = analysis
                for _, ds in groups:
                    for d, first, key in ds:
                        counts = fixed.setdefault(path, {})
                        counts.setdefault(d.code, 0)  # the file names the code it fixes
                        applied[key] += int(first)
        else:
            diagnostics = diagnose_analyses(list(analyses.values()), settings, list(roots))
    finally:
        FIX_PROBLEMS.reset(token)
    left = Counter(_identity(d, current) for d in diagnostics)
    for key, d in original or ():
        if applied[key] > 0:
            applied[key] -= 1
        elif left[key] > 0:
            left[key] -= 1
            continue
        assert isinstance(d.fix, PlannedFix)
        paths = [path for path, _ in d.fix.file_changes if current[path] != texts[path]]
        home = paths[0] if paths else d.path
        counts = fixed.setdefault(home, {})
        counts[d.code] = counts.get(d.code, 0) + 1
    return current, fixed, diagnostics, problems, converged


def fix_files(
    paths: Sequence[str],
    settings: "Settings",
    unsafe: Optional[bool] = None,
) -> FixReport:
    """Plan and compute the fixes for files and folders (nothing is written)."""
    from reprolint.api import SourceError, check_roots
    from reprolint.discovery import discover

    unsafe = settings.unsafe_fixes if unsafe is None else unsafe
    files = [f for f in discover(list(paths), settings)]
    sources: dict[str, SourceFile] = {}
    problems: list[str] = []
    notebooks: dict[str, Any] = {}
    # A symbolic link is fixed through its target (`write_change` writes the target),
    # once, and only when the target is inside the folders given.
    inside = [os.path.realpath(p) for p in paths]
    real_paths: set[str] = set()
    for path in files:
        real = os.path.realpath(path)
        if real in real_paths:
            continue  # the same file reached through a link and by its own name
        real_paths.add(real)
        if not any(
            real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in inside
        ):
            problems.append(f"{path}: not fixed: it resolves to {real}, outside the paths given")
            continue
        try:
            if path.endswith(".ipynb"):
                sources[path], notebooks[path] = read_notebook_source(path)
            else:
                sources[path] = read_source(path)
        except (OSError, SourceError, ValueError) as exc:
            problems.append(f"{path}: not fixed: {getattr(exc, 'reason', None) or exc}")
    # A notebook is fixed as its program (the code cells joined, as `check` sees it);
    # the changed lines go back to their cells.
    texts = {path: notebooks[path][0] if path in notebooks else s.text for path, s in sources.items()}
    tests: list[int] = []
    new, fixed, remaining, met, converged = fix_texts(texts, settings, check_roots(paths), unsafe, tests_left_out=tests)
    problems.extend(met)
    if not converged:
        problems.append(f"fixes did not converge after {MAX_ROUNDS} rounds; the last result is kept")
    for path, (program, cell_map) in notebooks.items():
        if new[path] == program:
            new[path] = texts[path] = sources[path].text
            continue
        try:
            new[path] = notebook_with_program(sources[path].text, program, new[path], cell_map)
        except (FixError, ValueError, KeyError) as exc:
            problems.append(f"{path}: fixes dropped: {exc}")
            new[path] = sources[path].text
            fixed.pop(path, None)
        texts[path] = sources[path].text
    changes = [
        FileChange(path, texts[path], new[path], sources[path], {})
        for path in texts
        if new[path] != texts[path]
    ]
    by_path = {c.path: c for c in changes}
    for path, counts in fixed.items():
        if path in by_path:
            by_path[path].fixed.update(counts)
    skipped = sum(
        1 for d in remaining
        if isinstance(d.fix, PlannedFix) and d.fix.file_changes
        and d.fix.applicability is Applicability.UNSAFE and not unsafe
    )
    return FixReport(changes, remaining, skipped, problems, len(files), converged, tests_left_out=sum(tests))


def _plural(n: int, word: str, plural: Optional[str] = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def summary(report: FixReport, mode: str, unsafe: bool) -> str:
    """The closing lines: ``Fixed 9 problems in 4 files (2 need a manual change: ...).``

    ``mode`` is "write", "diff" or "check" (dry run).
    """
    written = [c for c in report.changes if c.count or c.before != c.after]
    verb = "Fixed" if mode == "write" else "Would fix"
    manual = report.manual
    tail = ""
    if manual:
        need = "needs" if manual == 1 else "need"
        tail = f" ({manual} {need} a manual change: run `reprolint check` to see them)"
    failed = report.not_written if mode == "write" else 0
    if failed:
        could_not = f"{_plural(failed, 'file')} could not be written (see the errors above)"
        if report.fixed:
            line = f"{verb} {_plural(report.fixed, 'problem')} in {_plural(len(written), 'file')}; {could_not}{tail}."
        else:
            line = f"Nothing was fixed: {could_not}{tail}."
    elif report.fixed:
        line = f"{verb} {_plural(report.fixed, 'problem')} in {_plural(len(written), 'file')}{tail}."
    else:
        line = f"Nothing to fix{tail}." if manual else "Nothing to fix."
    lines = [line]
    if report.unsafe_skipped and not unsafe:
        n = report.unsafe_skipped
        lines.append(
            f"{_plural(n, 'unsafe fix', 'unsafe fixes')} {'was' if n == 1 else 'were'} not applied: "
            "rerun with `--unsafe-fixes` to apply "
            f"{'it' if n == 1 else 'them'} (they change an outcome the program already fixed, or can make it fail)."
        )
    if report.tests_left_out:
        from reprolint.reporters.text import tests_note

        lines.append(tests_note(report.tests_left_out))
    return "\n".join(lines) + "\n"
