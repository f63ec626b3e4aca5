"""``--output-format sarif``: one SARIF 2.1.0 log, for GitHub code scanning and IDEs.

The log carries every rule's metadata (rendered from the same rule doc as
``reprolint explain``), one result per finding with a 1-based region (the end column
points one past the last character, as SARIF defines it), the fix edits where a fix
exists, and one invocation with the exit status.

Paths are made relative to the working directory and anchored at ``%SRCROOT%``. SARIF has
no notion of notebook cells, and viewers resolve a region against the file itself, so a
notebook finding's region is the lines of the ``.ipynb`` file that store the cell lines;
its code cell and cell-relative region are in ``properties`` (``cell``, ``cellRegion``).
Its fix edits are cell-relative, so they are not offered as SARIF fixes.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, TextIO
from urllib.parse import quote

from reprolint import __version__
from reprolint.model import Diagnostic, Fix, Related, Severity, Span
from reprolint.reporters.github import relative_path

if TYPE_CHECKING:
    from reprolint.checks.base import Rule
    from reprolint.reporters import Report

__all__ = ["INFORMATION_URI", "SARIF_SCHEMA", "sarif_log", "render_sarif"]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/reprolint/"
SRCROOT = "%SRCROOT%"

_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _uri(path: str, cwd: str) -> str:
    # The file's bytes, percent-encoded (a non-UTF-8 name is a valid URI too).
    return quote(os.fsencode(relative_path(path, cwd)), safe="/")


def _region(span: Span) -> dict[str, int]:
    start_line = max(span.start_line, 1)
    start_col = max(span.start_col, 1)
    end_line = max(span.end_line, start_line)
    end_col = max(span.end_col, 1)
    if end_line == start_line:
        end_col = max(end_col, start_col)
    return {
        "startLine": start_line,
        "startColumn": start_col,
        "endLine": end_line,
        "endColumn": end_col,
    }


def _rule_descriptor(rule: "type[Rule]") -> dict[str, Any]:
    from reprolint.docs import rule_markdown

    what = rule.section("What it does")
    why = rule.section("Why is this bad?")
    full = " ".join(" ".join(part.split()) for part in (what, why) if part)
    descriptor: dict[str, Any] = {
        "id": rule.code,
        "name": rule.name(),
        "shortDescription": {"text": rule.summary() or rule.name()},
        "fullDescription": {"text": full or rule.summary() or rule.name()},
        "help": {"text": rule.doc() or rule.summary(), "markdown": rule_markdown(rule)},
        "defaultConfiguration": {"level": _LEVELS.get(rule.severity, "warning")},
        "properties": {
            "fixable": rule.fixable(),
            "framework": rule.framework,
            "tags": ["reproducibility", *(f.strip() for f in rule.framework.split(",") if f.strip())],
        },
    }
    return descriptor


def _fix(fix: Fix, uri: str) -> Optional[dict[str, Any]]:
    if not fix.edits:
        return None  # SARIF requires at least one replacement
    return {
        "description": {"text": fix.title},
        "artifactChanges": [
            {
                "artifactLocation": {"uri": uri, "uriBaseId": SRCROOT},
                "replacements": [
                    {
                        "deletedRegion": _region(edit.span),
                        "insertedContent": {"text": edit.content},
                    }
                    for edit in fix.edits
                ],
            }
        ],
        "properties": {"applicability": fix.applicability.value},
    }


def _result(d: Diagnostic, rule_index: dict[str, int], cwd: str) -> dict[str, Any]:
    uri = _uri(d.path, cwd)
    result: dict[str, Any] = {
        "ruleId": d.code,
        "level": _LEVELS.get(d.severity, "warning"),
        "message": {"text": d.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": uri, "uriBaseId": SRCROOT},
                    "region": _region(d.span),
                }
            }
        ],
    }
    if d.code in rule_index:
        result["ruleIndex"] = rule_index[d.code]
    if d.related:
        result["relatedLocations"] = [_related(number, r, cwd) for number, r in enumerate(d.related)]
    if d.cell is not None:
        from reprolint.notebooks import file_line

        start = file_line(d.path, d.cell, d.span.start_line)
        end = file_line(d.path, d.cell, d.span.end_line)
        region: dict[str, int] = {"startLine": start or 1}
        if end is not None:
            region["endLine"] = max(end, start or 1)
        result["locations"][0]["physicalLocation"]["region"] = region
        result["properties"] = {"cell": d.cell, "cellRegion": _region(d.span)}
    elif d.fix is not None:
        fix = _fix(d.fix, uri)
        if fix is not None:
            result["fixes"] = [fix]
    return result


def _related(number: int, r: Related, cwd: str) -> dict[str, Any]:
    """A related location; in a notebook, the file line holding the cell's line (like the
    finding's own location), with the cell and its region as properties."""
    location: dict[str, Any] = {
        "id": number,
        "physicalLocation": {
            "artifactLocation": {"uri": _uri(r.path, cwd), "uriBaseId": SRCROOT},
            "region": _region(r.span),
        },
        "message": {"text": r.message},
    }
    if r.cell is not None:
        from reprolint.notebooks import file_line

        start = file_line(r.path, r.cell, r.span.start_line)
        location["physicalLocation"]["region"] = {"startLine": start or 1}
        location["properties"] = {"cell": r.cell, "cellRegion": _region(r.span)}
    return location


def sarif_log(report: "Report", cwd: Optional[str] = None) -> dict[str, Any]:
    """The SARIF log of a report, as a JSON-ready dict."""
    from reprolint.checks.registry import all_rules

    cwd = cwd or os.getcwd()
    rules = all_rules()
    rule_index = {rule.code: i for i, rule in enumerate(rules)}
    root_uri = Path(os.path.realpath(cwd)).as_uri().rstrip("/") + "/"
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "reprolint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": [_rule_descriptor(rule) for rule in rules],
                    }
                },
                "invocations": [
                    {
                        # 0: clean, 1: findings; 2 is a usage or internal error.
                        "executionSuccessful": report.exit_status in (0, 1),
                        "exitCode": report.exit_status,
                    }
                ],
                "originalUriBaseIds": {SRCROOT: {"uri": root_uri}},
                "columnKind": "unicodeCodePoints",
                "results": [_result(d, rule_index, cwd) for d in report.diagnostics],
            }
        ],
    }


def render_sarif(report: "Report", out: TextIO) -> None:
    from reprolint.reporters import dump_json

    dump_json(sarif_log(report), out)
    out.write("\n")
