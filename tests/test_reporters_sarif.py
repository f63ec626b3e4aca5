"""`--output-format sarif`: a SARIF 2.1.0 log, valid against the official schema."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest

from reprolint import __version__
from reprolint.checks.registry import all_rules
from reprolint.docs import rule_markdown
from reprolint.model import Applicability, Diagnostic, Edit, Fix, Related, Severity, Span
from reprolint.reporters import Report, render

SCHEMA = json.loads(
    (Path(__file__).parent / "fixtures" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")
)
UNSEEDED = "import torch\n\nx = torch.randn(3)\n"
SEEDED = "import torch\n\ntorch.manual_seed(0)\nx = torch.randn(3)\n"


def _validate(log: dict) -> None:
    jsonschema.Draft4Validator(SCHEMA).validate(log)


def _sarif(report: Report) -> dict:
    out = io.StringIO()
    render("sarif", report, out)
    return json.loads(out.getvalue())


def test_schema_copy_is_the_official_one() -> None:
    assert SCHEMA["id"].endswith("/sarif-schema-2.1.0.json")
    assert "run" in SCHEMA["definitions"]


def test_findings_are_results_with_1_based_regions(cli, project) -> None:
    root = project({"src/train.py": UNSEEDED})
    result = cli("check", "--output-format", "sarif", "src", cwd=root)
    assert result.status == 1
    log = json.loads(result.out)
    _validate(log)
    [run] = log["runs"]
    [found] = run["results"]
    codes = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    assert found == {
        "ruleId": "RPL101",
        "ruleIndex": codes.index("RPL101"),
        "level": "warning",
        "message": {"text": found["message"]["text"]},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": "src/train.py", "uriBaseId": "%SRCROOT%"},
                    "region": {"startLine": 3, "startColumn": 5, "endLine": 3, "endColumn": 19},
                }
            }
        ],
        "fixes": found["fixes"],
    }
    # The unsafe fix (seed at the entry point) travels as a SARIF fix.
    [change] = found["fixes"][0]["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "src/train.py"
    assert found["message"]["text"].startswith("`torch.randn` draws from torch's global RNG")
    assert run["invocations"] == [{"executionSuccessful": True, "exitCode": 1}]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == Path(root).resolve().as_uri() + "/"


def test_clean_run_is_valid_with_no_results(cli, project) -> None:
    root = project({"train.py": SEEDED})
    result = cli("check", "--output-format", "sarif", ".", cwd=root)
    assert result.status == 0
    log = json.loads(result.out)
    _validate(log)
    assert log["runs"][0]["results"] == []
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": True, "exitCode": 0}]


def test_driver_describes_every_rule_from_its_doc() -> None:
    log = _sarif(Report([], 0))
    _validate(log)
    driver = log["runs"][0]["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("reprolint", __version__)
    assert driver["informationUri"].startswith("https://")
    rules = {rule.code: rule for rule in all_rules()}
    assert [d["id"] for d in driver["rules"]] == sorted(rules)
    for descriptor in driver["rules"]:
        rule = rules[descriptor["id"]]
        assert descriptor["name"] == rule.name()
        assert descriptor["shortDescription"]["text"] == (rule.summary() or rule.name())
        assert descriptor["fullDescription"]["text"].startswith(" ".join(rule.summary().split()))
        assert descriptor["help"]["markdown"] == rule_markdown(rule)
        assert descriptor["properties"]["tags"][0] == "reproducibility"
        assert all("," not in tag for tag in descriptor["properties"]["tags"])
        expected_level = {"error": "error", "warning": "warning", "info": "note"}
        assert descriptor["defaultConfiguration"]["level"] == expected_level[rule.severity.value]
    parse = next(d for d in driver["rules"] if d["id"] == "RPL900")
    assert parse["defaultConfiguration"]["level"] == "error"


def test_fix_edits_become_sarif_replacements() -> None:
    fix = Fix(
        Applicability.SAFE,
        "Disable cuDNN autotuning",
        (
            Edit(Span(4, 32, 4, 36), "False"),
            Edit(Span(1, 1, 1, 1), "import reprolint.runtime\n"),
        ),
    )
    d = Diagnostic(
        "RPL203", "cudnn-benchmark", "`cudnn.benchmark = True` picks kernels per run",
        "my dir/train.py", Span(4, 1, 4, 36), Severity.WARNING, fix,
    )
    log = _sarif(Report([d], 1, exit_status=1))
    _validate(log)
    [found] = log["runs"][0]["results"]
    assert found["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "my%20dir/train.py"
    assert found["fixes"] == [
        {
            "description": {"text": "Disable cuDNN autotuning"},
            "artifactChanges": [
                {
                    "artifactLocation": {"uri": "my%20dir/train.py", "uriBaseId": "%SRCROOT%"},
                    "replacements": [
                        {
                            "deletedRegion": {
                                "startLine": 4, "startColumn": 32, "endLine": 4, "endColumn": 36,
                            },
                            "insertedContent": {"text": "False"},
                        },
                        {
                            "deletedRegion": {
                                "startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 1,
                            },
                            "insertedContent": {"text": "import reprolint.runtime\n"},
                        },
                    ],
                }
            ],
            "properties": {"applicability": "safe"},
        }
    ]


def test_fix_without_edits_is_not_a_sarif_fix() -> None:
    d = Diagnostic(
        "RPL301", "missing-deterministic-algorithms", "m", "train.py", Span(1, 1, 1, 1),
        fix=Fix(Applicability.DISPLAY_ONLY, "Turn on deterministic algorithms"),
    )
    log = _sarif(Report([d], 1, exit_status=1))
    _validate(log)
    assert "fixes" not in log["runs"][0]["results"][0]


@pytest.mark.parametrize(
    ("severity", "level"),
    [(Severity.ERROR, "error"), (Severity.WARNING, "warning"), (Severity.INFO, "note")],
)
def test_severity_maps_to_sarif_level(severity: Severity, level: str) -> None:
    d = Diagnostic("RPL101", "unseeded-global-rng", "m", "a.py", Span(1, 1, 1, 2), severity)
    log = _sarif(Report([d], 1, exit_status=1))
    _validate(log)
    assert log["runs"][0]["results"][0]["level"] == level


def test_internal_error_status_marks_the_invocation_failed() -> None:
    log = _sarif(Report([], 0, exit_status=2))
    _validate(log)
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": False, "exitCode": 2}]


def test_parse_error_and_zero_width_spans_stay_valid(cli, project) -> None:
    root = project({"bad.py": "def train(:\n", "empty.ipynb": "{not json"})
    result = cli("check", "--output-format", "sarif", ".", cwd=root)
    log = json.loads(result.out)
    _validate(log)
    found = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r
             for r in log["runs"][0]["results"]}
    assert set(found) == {"bad.py", "empty.ipynb"}
    assert {r["ruleId"] for r in found.values()} == {"RPL900"}
    assert found["empty.ipynb"]["locations"][0]["physicalLocation"]["region"]["startLine"] == 1


def test_notebook_result_names_its_cell(cli, project) -> None:
    notebook = {
        "cells": [
            {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
             "source": ["import torch\n"]},
            {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
             "source": ["\n", "x = torch.randn(3)\n"]},
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    text = json.dumps(notebook, indent=1) + "\n"
    root = project({"nb.ipynb": text})
    result = cli("check", "--output-format", "sarif", "nb.ipynb", cwd=root)
    log = json.loads(result.out)
    _validate(log)
    [found] = log["runs"][0]["results"]
    file_line = text.splitlines().index('    "x = torch.randn(3)\\n"') + 1
    assert found["locations"][0]["physicalLocation"]["region"] == {
        "startLine": file_line, "endLine": file_line,
    }
    assert found["properties"] == {
        "cell": 2,
        "cellRegion": {"startLine": 2, "startColumn": 5, "endLine": 2, "endColumn": 19},
    }


def test_the_validator_rejects_a_broken_log() -> None:
    d = Diagnostic("RPL101", "unseeded-global-rng", "m", "a.py", Span(1, 1, 1, 2))
    log = _sarif(Report([d], 1, exit_status=1))
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    with pytest.raises(jsonschema.ValidationError):
        _validate(log)


def test_related_locations_become_sarif_related_locations() -> None:
    d = Diagnostic(
        "RPL101", "unseeded-global-rng", "m", "train.py", Span(2, 5, 2, 16),
        related=(Related("utils.py", Span(7, 1, 7, 20), "`torch.manual_seed` seeds torch here, after the draw"),),
    )
    log = _sarif(Report([d], 1, exit_status=1))
    _validate(log)
    [related] = log["runs"][0]["results"][0]["relatedLocations"]
    assert related["physicalLocation"]["artifactLocation"]["uri"] == "utils.py"
    assert related["physicalLocation"]["region"]["startLine"] == 7
    assert related["message"]["text"] == "`torch.manual_seed` seeds torch here, after the draw"
