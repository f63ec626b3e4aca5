"""The real-world evaluation's scorer (bench/realworld/evalsets.py): what counts as found,
which verdict judges a finding, and that the committed sets load and are well formed."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench" / "realworld"))

import evalsets  # noqa: E402
from evalsets import EvalSet, Finding, Problem, Repo, Verdict  # noqa: E402


def finding(code="RPL101", path="train.py", line=10, related=(), entry_points=("train.py",)):
    return Finding("o/r", code, path, line, None, "m", tuple(related), entry_points)


def problem(codes=("RPL101",), path="train.py", line=10, program=False, also=(), entry="train.py"):
    return Problem("o/r", entry, path, line, None, tuple(codes), program, "high", "c", "w", tuple(also))


@pytest.mark.parametrize(
    "found, expected",
    [
        (finding(line=13), True),  # within 3 lines
        (finding(line=14), False),  # one too far
        (finding(code="RPL102"), False),  # another code
        (finding(path="model.py"), False),  # another file
        (finding(path="model.py", related=[("train.py", 8, None)]), True),  # related location
    ],
)
def test_a_line_problem_is_found_within_three_lines_or_through_a_related_location(found, expected):
    assert evalsets.is_found(problem(), [found]) is expected


def test_a_problem_is_found_at_another_line_of_the_same_cause():
    assert evalsets.is_found(problem(line=10, also=(40,)), [finding(line=41)])
    assert not evalsets.is_found(problem(line=10), [finding(line=41)])


def test_a_program_problem_is_found_by_a_finding_that_names_its_entry_point():
    wanted = problem(codes=("RPL301",), program=True, line=1)
    assert evalsets.is_found(wanted, [finding(code="RPL301", path="utils.py", line=90)])
    other = finding(code="RPL301", path="utils.py", line=90, entry_points=("eval.py",))
    assert not evalsets.is_found(wanted, [other])


def test_a_code_prefix_matches_the_family():
    assert evalsets.is_found(problem(codes=("RPL1",)), [finding(code="RPL104")])
    assert not evalsets.is_found(problem(codes=("RPL1",)), [finding(code="RPL201")])


def test_the_exact_verdict_wins_and_slack_applies_only_to_verdicts_that_allow_it():
    exact = Verdict("o/r", "train.py", None, 10, "RPL101", "FP", None)
    near = Verdict("o/r", "train.py", None, 12, "RPL101", "TP", None, slack=3)
    index = evalsets.index_verdicts([near, exact])
    assert evalsets.verdict_of(finding(line=10), index) is exact
    assert evalsets.verdict_of(finding(line=14), index) is near
    assert evalsets.verdict_of(finding(line=16), index) is None
    strict_only = evalsets.index_verdicts([exact])
    assert evalsets.verdict_of(finding(line=11), strict_only) is None


def test_score_counts_strict_lenient_accuracy_and_high_confidence_recall():
    findings = [finding(line=10), finding(code="RPL402", line=30), finding(code="RPL203", line=50)]
    verdicts = [
        Verdict("o/r", "train.py", None, 10, "RPL101", "TP", True),
        Verdict("o/r", "train.py", None, 30, "RPL402", "TP*", False),
        Verdict("o/r", "train.py", None, 50, "RPL203", "FP", True),
    ]
    low = Problem("o/r", "train.py", "train.py", 70, None, ("RPL401",), False, "low", "c", "w")
    evalset = EvalSet("t", [Repo("o/r", "0" * 40, "k")], verdicts, [problem(), low], 1,
                      blind=True, sample_only=False)
    result = evalsets.score(evalset, findings, findings)
    assert result.judged == Counter({"TP": 1, "TP*": 1, "FP": 1})
    assert (evalsets.strict(result.judged), evalsets.lenient(result.judged)) == ("0.33", "0.67")
    assert result.accurate == Counter({True: 2, False: 1})
    # The low-confidence problem is left out of recall.
    assert (sum(result.recall_found.values()), sum(result.recall_total.values())) == (1, 1)
    # A blind set's report names no file of the repository.
    text = "\n".join(evalsets.report_lines(evalset, result, 3))
    assert "train.py" not in text


def test_the_report_also_gives_precision_without_parse_errors():
    findings = [finding(line=10), finding(code="RPL900", line=1), finding(code="RPL203", line=50)]
    verdicts = [
        Verdict("o/r", "train.py", None, 10, "RPL101", "TP", True),
        Verdict("o/r", "train.py", None, 1, "RPL900", "FP", True),
        Verdict("o/r", "train.py", None, 50, "RPL203", "FP", True),
    ]
    evalset = EvalSet("t", [Repo("o/r", "0" * 40, "k")], verdicts, [problem()], 1, blind=True, sample_only=False)
    result = evalsets.score(evalset, findings, findings)
    text = "\n".join(evalsets.report_lines(evalset, result, 3))
    assert evalsets.strict(result.judged) == "0.33"  # the main figure keeps every finding
    assert "without RPL900 (parse errors): strict 0.50, lenient 0.50 over 2 judged" in text


@pytest.mark.parametrize("name", ["dev", "frozen", "B"])
def test_each_committed_set_loads_with_pinned_commits_and_known_codes(name):
    evalset = evalsets.load(name)
    assert evalset.repos and all(len(r.commit) == 40 for r in evalset.repos)
    names = {r.name for r in evalset.repos}
    for p in evalset.problems:
        assert p.repo in names
        assert p.line >= 0
        assert p.codes and all(c == "NONE" or c.startswith("RPL") for c in p.codes)
        assert p.confidence in ("high", "medium", "low")
    for v in evalset.verdicts:
        assert v.verdict in evalsets.VERDICTS


def test_the_frozen_set_is_disjoint_from_the_development_sets():
    frozen = {r.name for r in evalsets.load("frozen").repos}
    dev = {r.name for r in evalsets.load("dev").repos} | {r.name for r in evalsets.load("B").repos}
    assert len(frozen) >= 30
    assert not frozen & dev


def test_frozen_notebook_labels_are_renumbered_to_checks_code_cells(tmp_path):
    import json

    cells = [{"cell_type": "markdown", "source": "# t"}, {"cell_type": "code", "source": "x"},
             {"cell_type": "markdown", "source": "m"}, {"cell_type": "code", "source": "y"}]
    (tmp_path / "nb.ipynb").write_text(json.dumps({"cells": cells}))
    labels = [Problem("o/r", "nb.ipynb", "nb.ipynb", 1, cell, ("RPL101",), False, "high", "c", "w")
              for cell in (1, 3, 2)]
    evalset = EvalSet("frozen", [], [], labels, 1, blind=True, sample_only=True)
    evalsets.code_cell_numbers(evalset, "o/r", tmp_path)
    assert [p.cell for p in evalset.problems] == [1, 2, -1]  # the markdown cell matches nothing


def test_an_rpl201_problem_is_found_through_the_program_finding_that_lists_it():
    wanted = problem(codes=("RPL201",), line=30)
    listing = finding(code="RPL301", line=4, related=[("train.py", 31, None)])
    assert evalsets.is_found(wanted, [listing])
    # at its own line, the program finding is not the op's finding
    assert not evalsets.is_found(problem(codes=("RPL201",), line=4), [finding(code="RPL301", line=4)])


def test_a_verdicts_accuracy_counts_only_for_the_message_it_judged():
    old = Verdict("o/r", "train.py", None, 10, "RPL304", "TP", False, message="TensorFlow 2.10")
    evalset = EvalSet("t", [Repo("o/r", "0" * 40, "k")], [old], [], 1, blind=True, sample_only=True)
    same = Finding("o/r", "RPL304", "train.py", 10, None, "TensorFlow 2.10", (), ("train.py",))
    changed = Finding("o/r", "RPL304", "train.py", 10, None, "TensorFlow 1.15, declared", (), ("train.py",))
    judged = evalsets.score(evalset, [same], [same])
    assert judged.accurate == Counter({False: 1}) and judged.message_changed == []
    rewritten = evalsets.score(evalset, [changed], [changed])
    # the verdict still says TP; its accuracy waits for a judge of the new message
    assert rewritten.judged == Counter({"TP": 1}) and rewritten.accurate == Counter()
    assert rewritten.message_changed == [changed]
    # a later verdict of the new message is the one that counts
    new = Verdict("o/r", "train.py", None, 10, "RPL304", "TP", True, message="TensorFlow 1.15, declared")
    evalset = EvalSet("t", [Repo("o/r", "0" * 40, "k")], [old, new], [], 1, blind=True, sample_only=True)
    assert evalsets.score(evalset, [changed], [changed]).accurate == Counter({True: 1})
    assert evalsets.score(evalset, [same], [same]).accurate == Counter({False: 1})


def test_every_frozen_verdict_keeps_the_message_it_judged():
    evalset = evalsets.load("frozen")
    assert evalset.verdicts and all(v.message for v in evalset.verdicts)


def test_set_b_reads_blind_rounds_as_verdicts_only(tmp_path):
    import json

    (tmp_path / "manifest.toml").write_text(
        '[[repo]]\nname = "o/r"\nshort = "r"\ncommit = "' + "0" * 40 + '"\n'
    )
    (tmp_path / "labels.json").write_text(json.dumps({"sample": [], "false_negatives": []}))
    (tmp_path / "verdicts").mkdir()
    (tmp_path / "verdicts" / "o+r.toml").write_text(
        '[[verdict]]\npath = "train.py"\nline = 12\ncode = "RPL402"\nmessage = "m"\n'
        'verdict = "TP"\naccurate = false\nreason = "r"\n'
    )
    evalset = evalsets.load_b(tmp_path)
    (verdict,) = evalset.verdicts
    assert (verdict.repo, verdict.path, verdict.line, verdict.verdict, verdict.accurate, verdict.message) == (
        "o/r", "train.py", 12, "TP", False, "m"
    )
    assert evalset.problems == []  # a judged finding is not a labelled problem
    assert verdict.slack == 0  # joined at its own line, unlike 0.1.0's sample
