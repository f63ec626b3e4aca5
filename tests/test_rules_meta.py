"""The rule contract: codes, names, docs and generated documentation stay consistent."""

from __future__ import annotations

from pathlib import Path

import re

import pytest

from reprolint.catalog.rng import rng_catalog
from reprolint.checks.base import DOC_SECTIONS, Rule
from reprolint.checks.registry import all_rules
from reprolint.docs import fixes_table_markdown, guide_markdown, rules_table_markdown
from reprolint.model import Applicability

REPO = Path(__file__).resolve().parent.parent


# The SPEC's rule table is a contract: every code in it must be registered, with this
# name. A rule added beyond it needs no line here (see the family test below).
SPEC_CODES = {
    "RPL101": "unseeded-global-rng", "RPL102": "unseeded-rng-instance", "RPL103": "entropy-seed",
    "RPL104": "conditional-seed", "RPL105": "partial-seed", "RPL201": "nondeterministic-op",
    "RPL202": "op-without-deterministic-impl", "RPL203": "cudnn-benchmark",
    "RPL204": "tf-nondeterministic-op", "RPL301": "missing-deterministic-algorithms",
    "RPL302": "missing-cudnn-deterministic", "RPL303": "missing-cublas-workspace-config",
    "RPL304": "missing-tf-op-determinism", "RPL305": "missing-jax-determinism",
    "RPL306": "framework-determinism-off", "RPL307": "missing-pythonhashseed",
    "RPL401": "set-iteration-order", "RPL402": "unsorted-directory-listing",
    "RPL403": "dataloader-worker-seed", "RPL404": "distributed-sampler-epoch",
    # beyond the SPEC's table ("more rules may be added inside each family"); codes are never reused
    "RPL405": "shared-model-training",
    "RPL900": "parse-error",
}

RULES = all_rules()


def test_every_spec_code_is_registered_with_its_name() -> None:
    registered = {r.code: r.name() for r in RULES}
    assert {code: registered.get(code) for code in SPEC_CODES} == SPEC_CODES


# Each family's package and the hundred its codes take (the SPEC's families).
FAMILY_PREFIX = {"rng": "RPL1", "ops": "RPL2", "flags": "RPL3", "order": "RPL4", "parse": "RPL9"}


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_code_fits_the_family_the_rule_lives_in(rule: type[Rule]) -> None:
    """A rule's code is RPL and three digits, in the hundred of the family package its
    module lives in (reprolint/checks/<family>/), and its name is its own."""
    family = rule.__module__.split(".")[2]
    assert re.fullmatch(r"RPL\d{3}", rule.code), rule.code
    assert rule.code.startswith(FAMILY_PREFIX[family]), (rule.code, family)
    assert [r.code for r in RULES if r.name() == rule.name()] == [rule.code], "names are unique"


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_doc_has_every_section(rule: type[Rule]) -> None:
    for section in DOC_SECTIONS:
        assert re.search(rf"^## {re.escape(section)}\s*$", rule.doc(), re.M), (rule.code, section)
    assert rule.summary(), rule.code


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_message_style(rule: type[Rule]) -> None:
    assert not rule.message.endswith("."), "messages have no trailing period"
    if rule.fix_title:
        assert rule.fix_title[0].isupper() and not rule.fix_title.endswith(".")


@pytest.mark.parametrize("rule", [r for r in RULES if r.code != "RPL900"], ids=lambda r: r.code)
def test_rules_have_examples(rule: type[Rule]) -> None:
    assert rule.VALID and rule.INVALID
    # a display-only rule edits nothing: its examples show the finding, not a rewrite
    if rule.fix_applicability not in (None, Applicability.DISPLAY_ONLY):
        assert any(example.fixed is not None for example in rule.INVALID), "fixable rules show a fix"


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_a_fix_level_comes_with_the_rule_s_own_planner(rule: type[Rule]) -> None:
    """A rule has a fix exactly when it registers a planner (`@Rule.fix_planner`, in its
    own module or a shared reprolint.fixes one): no table outside the rule says so."""
    fixable = rule.fix_applicability not in (None, Applicability.DISPLAY_ONLY)
    assert (rule.plan_fix is not None) == fixable, rule.code
    if rule.plan_fix is not None:
        assert rule.fix_title, "a rule with a fix names it"
        assert rule.plan_fix.__module__ == rule.__module__ or rule.plan_fix.__module__.startswith("reprolint.fixes.")
        assert any(example.fixed is not None for example in rule.INVALID), "its fix is shown on an example"
    if rule.fix_precheck is not None:
        assert rule.plan_fix is not None, "a precheck answers for the rule's own planner"


def test_catalog_draw_libraries_have_display_names() -> None:
    catalog = rng_catalog()
    used = {d.library for d in catalog.draws.values()} | {
        d.library for ds in catalog.method_draws.values() for d in ds
    }
    assert used <= set(catalog.libraries)
    assert all(set(s.seeds) <= set(catalog.libraries) for s in catalog.seeders.values())


def _section(text: str, name: str) -> str:
    match = re.search(rf"<!-- {name}:start -->\n(.*?)<!-- {name}:end -->", text, re.S)
    assert match, f"README lacks the {name} markers"
    return match.group(1)


def test_readme_rule_table_is_current() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert _section(readme, "rules-table") == rules_table_markdown(), (
        "README rule table is stale: run `python -m reprolint.docs` to regenerate"
    )


def test_generated_guide_is_current() -> None:
    guide = (REPO / "docs" / "guide.md").read_text(encoding="utf-8")
    assert guide == guide_markdown(), "docs/guide.md is stale: run `python -m reprolint.docs`"


def test_readme_fix_table_is_current() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert _section(readme, "fixes-table") == fixes_table_markdown(), (
        "README's 'What is fixed' table is stale: run `python -m reprolint.docs` to regenerate"
    )
