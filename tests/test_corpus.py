"""Per-rule precision and recall on the labelled corpus never regress."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpus_eval import score
from reprolint.checks.registry import all_rules

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "corpus"

BASELINE = json.loads((REPO / "tests" / "corpus_baseline.json").read_text())
SCORES = score(CORPUS)


@pytest.mark.parametrize("code", sorted(BASELINE))
def test_no_regression_against_the_baseline(code: str) -> None:
    s = SCORES.get(code)
    assert s is not None, f"{code}: no expectation or finding in the corpus any more"
    base = BASELINE[code]
    assert s.precision >= base["precision"], f"{code} false positives: {s.fp}"
    assert s.recall >= base["recall"], f"{code} missed: {s.fn}"
    assert s.tp >= base["support"], f"{code}: fewer labelled findings than the baseline"


@pytest.mark.parametrize("code", ["RPL101", "RPL102", "RPL103", "RPL104", "RPL105"])
def test_randomness_rules_are_exact_on_the_corpus(code: str) -> None:
    s = SCORES[code]
    assert s.fp == [] and s.fn == []
    assert s.tp >= 3, "each rule needs several labelled cases"


def test_every_rule_has_a_baseline() -> None:
    """A rule's corpus cases count only once its scores are in the baseline: a new rule
    adds its line there (the parse error is guarded by the test below instead)."""
    rules = {rule.code for rule in all_rules()} - {"RPL900"}
    assert sorted(rules - set(BASELINE)) == []


def test_every_corpus_file_parses() -> None:
    assert "RPL900" not in SCORES
