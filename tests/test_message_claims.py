"""Every claim a message makes about the checked code is true of that code (issue 26 item 5).

A message names the call it reports, the entry point, the lines of related draws, seeds
and ops, and the versions it assumed and where they were declared. This test checks each
of those claims, for every finding on the bundled corpus, against the source it names
and on the rules' INVALID examples (the templates are tested apart, in
test_rule_messages.py).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from reprolint.api import check_paths, check_sources
from reprolint.checks.base import all_rules
from reprolint.config import Settings
from reprolint.model import Diagnostic

REPO = Path(__file__).resolve().parent.parent

# `name(...)`, `a.b[...]`: the code a message quotes first (what it reports).
_SUBJECT = re.compile(r"^`([^`]+)`")
_REFERENCE = re.compile(r"((?:corpus/|examples/)[\w./+-]+\.py):(\d+)")
_ENTRY = re.compile(r"\(entry point: ([^;)]+)")
_DECLARED = re.compile(r"declared in ([\w./-]+) as `([^`]+)`")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


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


def _quoted_words(quoted: str) -> list[str]:
    """The names of a quoted expression, without what the message elided (`...`)."""
    text = quoted.replace("...", " ")
    return [w for w in _WORD.findall(text) if w not in {"for", "in", "num_workers"}]


def _lines_of(d: Diagnostic) -> str:
    lines = _lines(d.path)
    return "\n".join(lines[d.span.start_line - 1 : d.span.end_line])


def _ids() -> list[str]:
    return [f"{d.path}:{d.span.start_line}:{d.code}" for d in _findings()]


def test_the_corpus_gives_findings_of_most_rules() -> None:
    assert len({d.code for d in _findings()}) >= 20


@pytest.mark.parametrize("d", _findings(), ids=_ids())
def test_the_reported_code_is_the_code_at_the_finding(d: Diagnostic) -> None:
    match = _SUBJECT.match(d.message)
    if match is None or d.span.start_line == 1 and d.span.start_col == 1:
        return  # a program-level message (anchored at the module's start) quotes no call
    here = _lines_of(d)
    missing = [w for w in _quoted_words(match.group(1)) if w not in here]
    assert not missing, (d.message, here)


@pytest.mark.parametrize("d", _findings(), ids=_ids())
def test_related_locations_point_at_what_their_notes_quote(d: Diagnostic) -> None:
    for related in d.related:
        lines = _lines(related.path)
        assert 1 <= related.span.start_line <= len(lines), related
        match = _SUBJECT.match(related.message)
        if match:
            text = lines[related.span.start_line - 1]
            missing = [w for w in _quoted_words(match.group(1)) if w not in text]
            assert not missing, (related, text)


@pytest.mark.parametrize("d", _findings(), ids=_ids())
def test_lines_and_entry_points_a_message_names_exist(d: Diagnostic) -> None:
    for path, line in _REFERENCE.findall(d.message):
        assert 1 <= int(line) <= len(_lines(path)), (d.message, path, line)
        # a line the message names is one of the finding's own or a related location
        places = {(d.path, d.span.start_line)} | {(r.path, r.span.start_line) for r in d.related}
        assert (path, int(line)) in places, d.message
    for entry in _ENTRY.findall(d.message):
        assert entry.strip() in d.entry_points, (d.message, d.entry_points)
        assert _exists(entry.strip())


@pytest.mark.parametrize("d", _findings(), ids=_ids())
def test_a_declared_version_is_what_the_named_file_declares(d: Diagnostic) -> None:
    for filename, spec in _DECLARED.findall(d.message):
        folders = Path(d.path).parents
        candidates = [str(p / filename) for p in folders if _exists(str(p / filename))]
        assert candidates, (d.message, filename)
        assert spec in "\n".join(_lines(candidates[0])), (d.message, candidates[0])
