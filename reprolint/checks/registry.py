"""Every rule of reprolint, by code: importing the rule packages registers their classes.

Rule modules import the framework (:mod:`reprolint.checks.base`); this module imports the
rule modules, so the framework never imports the rules it registers.
"""

from __future__ import annotations

from typing import Optional

from reprolint.checks.base import Rule, registered_rules

__all__ = ["all_rules", "get_rule"]


def _load_rule_modules() -> None:
    # Importing the packages registers every rule class (on first use: a run served
    # from the cache imports none of them).
    import reprolint.checks.flags  # noqa: F401
    import reprolint.checks.ops  # noqa: F401
    import reprolint.checks.order  # noqa: F401
    import reprolint.checks.parse  # noqa: F401
    import reprolint.checks.rng  # noqa: F401


def all_rules() -> list[type[Rule]]:
    """Every registered rule class, sorted by code."""
    _load_rule_modules()
    rules = registered_rules()
    return [rules[code] for code in sorted(rules)]


def get_rule(code: str) -> Optional[type[Rule]]:
    _load_rule_modules()
    return registered_rules().get(code.upper())
