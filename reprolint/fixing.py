"""Attaching fixes to findings: each rule plans its own, the engine applies them.

``attach_fixes`` (run by every check) asks the finding's rule for its fix: a rule with a
fix registers a planner next to its detection, in its own module (``@MyRule.fix_planner``,
see :mod:`reprolint.fixes.planning`). The planner reads the finding's data (never its
message) and returns an action: a codemod from :mod:`reprolint.fixes` bound to its
target. The action is applied alone to the original module and the difference becomes
the diagnostic's ``Fix`` edits, so JSON and SARIF show exactly what ``fix`` would write.
A fix that would not parse is dropped. Each action is idempotent (it looks for its own
result before adding it), so a second ``fix`` changes nothing.

Applying the fixes to convergence, reading and writing files and notebooks is the
engine's (:mod:`reprolint.fixes.engine`, :mod:`reprolint.fixes.files`); its public names
are re-exported here.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence

from reprolint.fixes.edits import FixError, apply_edits, diff_edits
from reprolint.fixes.engine import MAX_ROUNDS, FixReport, PlannedFix, fix_files, fix_texts, summary
from reprolint.fixes.files import (
    FileChange,
    SourceFile,
    WriteError,
    read_source,
    remove_stale_temp_files,
    unified_diff,
    write_change,
)
from reprolint.fixes.notebook_edits import notebook_with_program, read_notebook_source
from reprolint.fixes.planning import FixAction, FixPlanner
from reprolint.fixes.seeding import ensure_install, ensure_seed_helper
from reprolint.model import Applicability, Diagnostic, Edit, Fix
from reprolint.parallel import forks, run_ordered

if TYPE_CHECKING:
    from reprolint.analysis.context import CheckContext

__all__ = [
    "MAX_ROUNDS",
    "FileChange",
    "FixError",
    "FixReport",
    "PlannedFix",
    "SourceFile",
    "WriteError",
    "apply_edits",
    "attach_fixes",
    "diff_edits",
    "ensure_install",
    "ensure_seed_helper",
    "fix_files",
    "fix_texts",
    "notebook_with_program",
    "read_notebook_source",
    "read_source",
    "remove_stale_temp_files",
    "summary",
    "unified_diff",
    "write_change",
]


def _realise_all(planner: FixPlanner, action: FixAction) -> tuple[list[tuple[str, tuple[Edit, ...]]], list[str]]:
    """(path, edits) of an action and of the same fix for the other programs, one entry
    per file (two programs sharing an entry point share its edits), and the files where
    the fix could not be made (each planned action has something to do)."""
    files: dict[str, tuple[Edit, ...]] = {}
    failed: list[str] = []
    for one in (action, *action.also):
        edits = planner.realise(one)
        if edits and one.path not in files:
            files[one.path] = edits
        elif not edits and one.path not in failed:
            failed.append(one.path)
    return list(files.items()), [path for path in failed if path not in files]


def attach_fixes(
    diagnostics: Sequence[Diagnostic],
    ctx: "CheckContext",
    sources: Mapping[str, str],
    edits: bool = True,
    jobs: Optional[int] = 1,
) -> list[Diagnostic]:
    """The diagnostics with their ``fix`` planned (rules with a fix level only).

    ``edits=False``: only whether each finding has a fix and its level (what the text
    formats show); the fix carries the rule's title and no edits, and nothing is
    transformed (see ``FixPlanner.available``).

    ``jobs`` (None: every core): realising the actions (a transform, a code-generation pass, a parse check
    and a diff each) is most of what a JSON or SARIF ``check`` costs on code with many
    findings. With more than one job and actions in enough files, the actions are
    planned here, each distinct one is realised once in a forked worker (the actions
    of one file together), and the findings are assembled here from the results. The
    result does not depend on ``jobs``.
    """
    out = list(diagnostics)
    todo = [i for i, d in enumerate(diagnostics) if _needs_planning(d)]
    if not todo:
        return out
    from reprolint.checks.registry import get_rule
    from reprolint.checks.ops._ops import torch_op_findings

    planner = FixPlanner(ctx, sources, get_rule, torch_op_findings)
    if not edits:
        for index in todo:
            out[index] = _with_availability(planner, diagnostics[index])
        return out
    planned = {index: _plan(planner, diagnostics[index]) for index in todo}
    if jobs != 1:
        _realise_in_workers(planner, [a for a in planned.values() if a is not None], jobs)
    for index in todo:
        out[index] = _with_fix(planner, diagnostics[index], planned[index])
    return out


def _needs_planning(d: Diagnostic) -> bool:
    from reprolint.checks.registry import get_rule

    rule = get_rule(d.code)
    return d.fix is None and rule is not None and rule.fix_applicability is not None


def _title(d: Diagnostic) -> tuple[Applicability, str]:
    from reprolint.checks.registry import get_rule

    rule = get_rule(d.code)
    assert rule is not None and rule.fix_applicability is not None
    return rule.fix_applicability, (rule.fix_title or "").split("{")[0].strip() or "Fix"


def _strict() -> bool:
    return bool(os.environ.get("REPROLINT_FIX_STRICT"))


def _with_availability(planner: FixPlanner, d: Diagnostic) -> Diagnostic:
    level, title = _title(d)
    if level is not Applicability.DISPLAY_ONLY:
        try:
            available = planner.available(d)
        except Exception:  # noqa: BLE001 - a planning bug must never break `check`
            if _strict():
                raise
            available = False
        if not available:
            return d
        level = _level(planner, d, level)
    return replace(d, fix=Fix(level, title))


def _level(planner: FixPlanner, d: Diagnostic, default: Applicability) -> Applicability:
    try:
        return planner.level(d)
    except Exception:  # noqa: BLE001 - a planning bug must never break `check`
        if _strict():
            raise
        return default


def _plan(planner: FixPlanner, d: Diagnostic) -> Optional[FixAction]:
    """The finding's action (none for a fix that is only shown, never applied)."""
    if _title(d)[0] is Applicability.DISPLAY_ONLY:
        return None
    try:
        return planner.plan(d)
    except Exception:  # noqa: BLE001 - a planning bug must never break `check`
        if _strict():
            raise
        return None


def _with_fix(planner: FixPlanner, d: Diagnostic, action: Optional[FixAction]) -> Diagnostic:
    """``d`` with the fix of its planned ``action`` (unchanged when there is none)."""
    level, title = _title(d)
    if level is Applicability.DISPLAY_ONLY:
        return replace(d, fix=Fix(level, title))
    if action is None:
        return d
    try:
        files, failed = _realise_all(planner, action)
    except Exception:  # noqa: BLE001 - a planning bug must never break `check`
        if _strict():
            raise
        return d
    if not files:
        return d
    (path, changes), *more = files
    shown = next((c for p, c in files if p == d.path), ())
    title = action.title
    if more:
        where = ", ".join(p for p, _ in files)
        title = f"{title} (in each program that runs it: {where})"
    if failed and action.also:  # a finding several programs share, not fixable in all
        title = f"{title}; still needs a change by hand in {', '.join(failed)}"
    fix = PlannedFix(action.applicability, title, shown, path=path, changes=changes, more=tuple(more))
    return replace(d, fix=fix)


# Fewer files to change than this are realised here: a forked worker starts in
# milliseconds, but imports libcst's codemod package (~0.35 s) for the first import it
# adds, and an action costs 30-100 ms.
_IN_PROCESS_BELOW = 4

# What forked workers read: the planner (with the modules it parsed while planning) and
# the actions to realise, by file. Set by _realise_in_workers around its run_ordered.
_SHARED: Optional[tuple[FixPlanner, list[list[FixAction]]]] = None


def _realise_in_workers(planner: FixPlanner, actions: list[FixAction], jobs: Optional[int]) -> None:
    """Realise the distinct actions (and their ``also``) in worker processes, into the
    planner's memo; small runs, strict mode and platforms that do not fork leave them
    to be realised here."""
    by_path: dict[str, list[FixAction]] = {}
    seen: set[tuple[Any, ...]] = set()
    for action in actions:
        for one in (action, *action.also):
            key = planner.realise_key(one)
            if key not in seen and not planner.realised(key):
                seen.add(key)
                by_path.setdefault(one.path, []).append(one)
    if len(by_path) < _IN_PROCESS_BELOW or not forks() or _strict():
        return
    global _SHARED
    _SHARED = (planner, list(by_path.values()))
    try:
        done = run_ordered(
            _realise_file, [(path, i) for i, path in enumerate(by_path)], jobs,
            # A worker that died (a crash in libcst's native code): its file's actions
            # have no edits, as for a transform that fails.
            on_crash=lambda item, _why: [(planner.realise_key(a), ()) for a in by_path[item[0]]],
            in_process_below=_IN_PROCESS_BELOW,
        )
    finally:
        _SHARED = None
    for results in done:
        for key, edits in results:
            planner.remember(key, edits)


def _realise_file(item: tuple[str, int]) -> list[tuple[tuple[Any, ...], tuple[Edit, ...]]]:
    """In a forked worker: (memo key, edits) of one file's actions. An action whose
    realisation raises is left out (realised again in the parent, which reports it as
    a serial run does)."""
    assert _SHARED is not None
    planner, groups = _SHARED
    out = []
    for action in groups[item[1]]:
        try:
            out.append((planner.realise_key(action), planner.realise(action)))
        except Exception:  # noqa: BLE001 - see the docstring
            continue
    return out
