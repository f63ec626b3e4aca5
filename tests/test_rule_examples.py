"""Every rule's VALID and INVALID examples are test cases (`pytest -k RPL101`)."""

from __future__ import annotations

import pytest

from reprolint.api import check_sources
from reprolint.checks.base import Invalid, Rule, Valid
from reprolint.checks.registry import all_rules


def _cases() -> list[object]:
    cases = []
    for rule in all_rules():
        for i, example in enumerate(rule.VALID):
            cases.append(pytest.param(rule, example, id=f"{rule.code}-valid-{i}"))
        for i, example in enumerate(rule.INVALID):
            cases.append(pytest.param(rule, example, id=f"{rule.code}-invalid-{i}"))
    return cases


def _run(example: "Valid | Invalid") -> list:
    sources = {"main.py": example.source, **dict(example.files)}
    return check_sources(sources, root=".")


@pytest.mark.parametrize(("rule", "example"), _cases())
def test_example(rule: type[Rule], example: "Valid | Invalid") -> None:
    found = [d for d in _run(example) if d.code == rule.code]
    if isinstance(example, Valid):
        assert found == [], f"{rule.code} reported on a VALID example: {found}"
        return
    assert found, f"{rule.code} not reported on INVALID example:\n{example.source}"
    if example.line is not None:
        in_main = [d for d in found if d.path == "main.py"]
        assert example.line in {d.span.start_line for d in in_main}, found
    if example.message is not None:
        assert any(example.message in d.message for d in found), [d.message for d in found]
