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
from typing import TYPE_CHECKING, Mapping, Optional, Sequence

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

if TYPE_CHECKING:
    from reprolint.checks.base import CheckContext

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
) -> list[Diagnostic]:
    """The diagnostics with their ``fix`` planned (rules with a fix level only).

    ``edits=False``: only whether each finding has a fix and its level (what the text
    formats show); the fix carries the rule's title and no edits, and nothing is
    transformed (see ``FixPlanner.available``).
    """
    from reprolint.checks.base import get_rule

    planner: Optional[FixPlanner] = None
    out = []
    for d in diagnostics:
        rule = get_rule(d.code)
        if d.fix is not None or rule is None or rule.fix_applicability is None:
            out.append(d)
            continue
        title = (rule.fix_title or "").split("{")[0].strip() or "Fix"
        if rule.fix_applicability is Applicability.DISPLAY_ONLY:
            out.append(replace(d, fix=Fix(rule.fix_applicability, title)))
            continue
        planner = planner or FixPlanner(ctx, sources)
        if not edits:
            try:
                available = planner.available(d)
            except Exception:  # noqa: BLE001 - a planning bug must never break `check`
                if os.environ.get("REPROLINT_FIX_STRICT"):
                    raise
                available = False
            out.append(replace(d, fix=Fix(rule.fix_applicability, title)) if available else d)
            continue
        try:
            action = planner.plan(d)
            files, failed = _realise_all(planner, action) if action is not None else ([], [])
        except Exception:  # noqa: BLE001 - a planning bug must never break `check`
            if os.environ.get("REPROLINT_FIX_STRICT"):
                raise
            action, files, failed = None, [], []
        if action is None or not files:
            out.append(d)
            continue
        (path, changes), *more = files
        shown = next((c for p, c in files if p == d.path), ())
        title = action.title
        if more:
            where = ", ".join(p for p, _ in files)
            title = f"{title} (in each program that runs it: {where})"
        if failed and action.also:  # a finding several programs share, not fixable in all
            title = f"{title}; still needs a change by hand in {', '.join(failed)}"
        fix = PlannedFix(action.applicability, title, shown, path=path, changes=changes, more=tuple(more))
        out.append(replace(d, fix=fix))
    return out
