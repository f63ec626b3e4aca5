"""Documentation rendered from the rule classes: `explain`, `guide`, the README tables."""

from __future__ import annotations

from reprolint.checks.base import Rule

from reprolint.checks.registry import all_rules

__all__ = ["GUIDE_ORDER", "guide_markdown", "rule_markdown", "rules_table_markdown"]

# The guideline is a checklist in the order a user should work through it.
GUIDE_ORDER = (
    ("1. Seed every source of randomness", "RPL1"),
    ("2. Turn on the determinism flags", "RPL3"),
    ("3. Avoid or patch nondeterministic ops", "RPL2"),
    ("4. Fix iteration and listing order", "RPL4"),
)


# The rule behind every rule's level (SPEC, fix): what `explain` and the guide say.
SAFETY_RULE = (
    "A fix is safe when every run of the fixed program is a run the original program "
    "could have produced (seeding a library the program never seeds, giving an "
    "entropy-seeded generator a seed, sorting a directory listing or a set of strings it "
    "iterates): `reprolint fix --write` applies it. It is unsafe when it changes an "
    "outcome the program already fixed (moving an existing seed above earlier draws, "
    "changing a seed's value) or can make the program fail (deterministic mode where an "
    "op without a deterministic implementation runs): only `--unsafe-fixes` applies it."
)


def fix_level_text(rule: type[Rule]) -> str:
    """The level column: ``safe``, ``unsafe``, ``display-only``, ``no``, or "safe, or
    unsafe" for a rule whose level depends on the program (its *Fix safety* says when)."""
    level = rule.fixable()
    if rule.fix_level is not None:
        other = "unsafe" if level == "safe" else "safe"
        return f"{level}, or {other}"
    return level


def rule_markdown(rule: type[Rule], level: int = 1) -> str:
    hashes = "#" * level
    body = rule.doc().replace("\n## ", f"\n{hashes}# ")
    if body.startswith("## "):
        body = f"{hashes}# " + body[3:]
    note = f"\n\n{SAFETY_RULE}" if rule.fix_applicability is not None and level == 1 else ""
    return (
        f"{hashes} {rule.code} {rule.name()}\n\n"
        f"Fix: {fix_level_text(rule)}. Framework: {rule.framework}.\n\n{body}{note}\n"
    )


def guide_markdown() -> str:
    rules = all_rules()
    parts = [
        "# The reprolint reproducibility guideline\n",
        "Generated from the rule docs by `reprolint guide`. Work through it in order:\n"
        "seed, flags, ops, order, then prove the result with `reprolint verify`.\n",
        f"Fix safety. {SAFETY_RULE}\n",
    ]
    for title, prefix in GUIDE_ORDER:
        parts.append(f"## {title}\n")
        for rule in rules:
            if rule.code.startswith(prefix):
                parts.append(rule_markdown(rule, level=3))
    parts.append(
        "## 5. Verify\n\nRun the training twice and compare bit for bit:\n"
        "`reprolint verify -- python train.py`.\n"
    )
    return "\n".join(parts)


def rules_table_markdown() -> str:
    lines = ["| code | name | fix | what it finds |", "|---|---|---|---|"]
    for rule in all_rules():
        summary = rule.summary().replace("|", "\\|")
        lines.append(f"| {rule.code} | {rule.name()} | {rule.fixable()} | {summary} |")
    return "\n".join(lines) + "\n"


def fixes_table_markdown() -> str:
    """README's "What is fixed": each rule with a fix level, its fix as its doc's
    *Fix safety* section describes it, and the level; then the rules without one."""
    lines = ["| code | fix | level |", "|---|---|---|"]
    unfixed = []
    for rule in all_rules():
        if rule.fix_applicability is None:
            unfixed.append(rule.code)
            continue
        fix = " ".join(rule.section("Fix safety").split()).replace("|", "\\|")
        lines.append(f"| {rule.code} | {fix} | {fix_level_text(rule)} |")
    lines.append("")
    lines.append(
        f"Not fixed: {', '.join(unfixed)} (each rule's *Fix safety* section says why: "
        "`reprolint explain CODE`)."
    )
    return "\n".join(lines) + "\n"


def write_generated_docs(repo: "str | None" = None) -> None:
    """Regenerate README's rule and fix tables and docs/guide.md (``python -m reprolint.docs``)."""
    import re
    from pathlib import Path

    root = Path(repo) if repo else Path(__file__).resolve().parent.parent
    readme = root / "README.md"
    text = readme.read_text(encoding="utf-8")
    for name, table in (("rules-table", rules_table_markdown), ("fixes-table", fixes_table_markdown)):
        text = re.sub(
            rf"(<!-- {name}:start -->\n).*?(<!-- {name}:end -->)",
            lambda m: m.group(1) + table() + m.group(2),
            text,
            flags=re.S,
        )
    readme.write_text(text, encoding="utf-8")
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs" / "guide.md").write_text(guide_markdown(), encoding="utf-8")


if __name__ == "__main__":
    write_generated_docs()
