"""The reproducibility guideline: generated from the rule docs, linked, complete, ordered."""

from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.checks.registry import all_rules
from reprolint.docs import guide_markdown

REPO = Path(__file__).resolve().parent.parent
GUIDE = guide_markdown()
RULES = [r for r in all_rules() if r.code != "RPL900"]


def test_readme_links_the_guide() -> None:
    assert "(docs/guide.md)" in (REPO / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_guide_has_every_rule_with_rationale_and_mitigation(rule: type) -> None:
    heading = f"### {rule.code} {rule.name()}\n"
    assert heading in GUIDE
    assert rule.section("Why is this bad?"), rule.code
    assert "Use instead" in rule.section("Example") or "Mitigation" in rule.section("Why is this bad?")


def test_guide_is_a_checklist_seed_flags_ops_order_verify() -> None:
    positions = [GUIDE.index(marker) for marker in (
        "### RPL101", "### RPL301", "### RPL201", "### RPL401", "## 5. Verify",
    )]
    assert positions == sorted(positions)


def test_explain_prints_the_rule_doc(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("explain", "RPL303")
    assert result.status == 0
    assert "CUBLAS_WORKSPACE_CONFIG" in result.out and "Mitigation" in result.out
