"""Every claim a message makes about the checked code is true of that code (issue 26 item 5).

A message names the call it reports, the entry point, the lines of related draws, seeds
and ops, and the versions it assumed and where they were declared. This test checks each
of those claims against the source it names, for every finding on the bundled corpus
and on the rules' INVALID examples (the templates are tested apart, in
test_rule_messages.py; run.py checks the same claims on the evaluation sets).
"""

from __future__ import annotations

import re
import sys
from functools import cache
from pathlib import Path
from typing import Optional

import pytest

from reprolint.api import check_paths, check_sources
from reprolint.checks.registry import all_rules
from reprolint.config import Settings
from reprolint.model import Diagnostic

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench" / "realworld"))
import claims  # noqa: E402

REPO = Path(__file__).resolve().parent.parent

# The sources of the rules' INVALID examples, by path, for the examples' findings.
_EXAMPLE_SOURCES: dict[str, dict[str, str]] = {}


@cache
def _findings() -> tuple[Diagnostic, ...]:
    result = check_paths(["corpus"], Settings(), jobs=1)
    found = [d for d in result.diagnostics if d.cell is None and d.code != "RPL900"]
    for rule in all_rules():
        for number, example in enumerate(rule.INVALID):
            root = f"examples/{rule.code}-{number}"
            sources = {f"{root}/{k}": v for k, v in {"main.py": example.source, **dict(example.files)}.items()}
            _EXAMPLE_SOURCES.update({p: sources for p in sources})
            found += [d for d in check_sources(sources, root=root) if d.cell is None and d.code != "RPL900"]
    return tuple(found)


@cache
def _lines(path: str) -> tuple[str, ...]:
    if path in _EXAMPLE_SOURCES:
        return tuple(_EXAMPLE_SOURCES[path][path].splitlines())
    return tuple((REPO / path).read_text(encoding="utf-8").splitlines())


def _exists(path: str) -> bool:
    return path in _EXAMPLE_SOURCES or (REPO / path).is_file()


def _claimed(d: Diagnostic) -> claims.Claimed:
    places = ((d.path, d.span.start_line), *((r.path, r.span.start_line) for r in d.related))
    return claims.Claimed(
        d.path, d.span.start_line, d.span.end_line, d.message, places, d.entry_points,
        program_level=d.span.start_line == 1 and d.span.start_col == 1,
    )


def _maybe_lines(path: str) -> Optional[tuple[str, ...]]:
    return _lines(path) if _exists(path) else None


def _ids() -> list[str]:
    return [f"{d.path}:{d.span.start_line}:{d.code}" for d in _findings()]


def test_the_corpus_gives_findings_of_most_rules() -> None:
    assert len({d.code for d in _findings()}) >= 20


@pytest.mark.parametrize("d", _findings(), ids=_ids())
def test_every_claim_of_the_message_holds_in_the_source(d: Diagnostic) -> None:
    # the quoted code is at the finding, named lines are its places, the entry point is
    # its program, a declared version is in the file it names (bench/realworld/claims.py)
    assert claims.failed_claims(_claimed(d), _maybe_lines) == [], d.message


@pytest.mark.parametrize("d", _findings(), ids=_ids())
def test_related_locations_point_at_what_their_notes_quote(d: Diagnostic) -> None:
    for related in d.related:
        lines = _lines(related.path)
        assert 1 <= related.span.start_line <= len(lines), related
        match = re.match(r"^`([^`]+)`", related.message)
        if match:
            text = lines[related.span.start_line - 1]
            missing = [w for w in claims.quoted_names(match.group(1)) if w not in text]
            assert not missing, (related, text)


@pytest.mark.parametrize(
    "message, failed",
    [
        ("`nn.Linear(...)` initialises weights (entry point: train.py)", []),
        ("`nn.Conv2d(...)` initialises weights", ["quoted code not at the finding (Conv2d)"]),
        ("`nn.Linear(...)` (entry point: eval.py)", ["names an entry point that is not its program (eval.py)"]),
        ("`nn.Linear(...)` (entry point: train.py, eval.py and 2 more)",
         ["names an entry point that is not its program (eval.py)"]),
        ("`nn.Linear(...)` draws first (model.py:3)", []),
        ("`nn.Linear(...)` draws first (model.py:9)", ["names a line that does not exist (model.py:9)"]),
        ("`nn.Linear(...)` draws first (model.py:1)", ["names a line that is none of its places (model.py:1)"]),
        ("`nn.Linear(...)` (torch 1.7, declared in requirements.txt as `torch==1.7.1`)", []),
        ("`nn.Linear(...)` (torch 1.8, declared in requirements.txt as `torch==1.8.0`)",
         ["declaration not in requirements.txt (torch==1.8.0)"]),
        ("`nn.Linear(...)` (torch 1.7, declared as `torch==1.7.1` in requirements.txt)", []),
        ("`nn.Linear(...)` (torch 1.8, declared as `torch==1.8.0` in requirements.txt): more",
         ["declaration not in requirements.txt (torch==1.8.0)"]),
    ],
)
def test_each_kind_of_false_claim_is_caught(message: str, failed: list[str]) -> None:
    files = {
        "model.py": ("import torch.nn as nn", "", "layer = nn.Linear(3, 4)"),
        "requirements.txt": ("torch==1.7.1",),
    }
    claimed = claims.Claimed("model.py", 3, 3, message, (("model.py", 3),), ("train.py",), program_level=False)
    assert claims.failed_claims(claimed, files.get) == failed
