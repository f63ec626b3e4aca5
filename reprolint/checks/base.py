"""The rule framework: a rule is a class with its code, message, doc and examples.

Rule classes register themselves by subclassing :class:`Rule`. Their ``VALID`` and
``INVALID`` examples are turned into test cases by ``tests/test_rule_examples.py``; their
docstring (sections *What it does / Why is this bad? / Example / Fix safety / References*)
feeds ``reprolint explain``, ``reprolint guide``, the README table and SARIF rule help.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, ClassVar, Iterable, Iterator, Mapping, Optional

# The context rules query is the analysis layer's (reprolint.analysis.context); rule
# modules take it from here with the rest of their framework.
from reprolint.analysis.context import CheckContext
from reprolint.model import Applicability, Fix, Related, Severity, Span

__all__ = [
    "CheckContext",
    "Finding",
    "Invalid",
    "Rule",
    "Valid",
    "registered_rules",
]

DOC_SECTIONS = ("What it does", "Why is this bad?", "Example", "Fix safety", "References")


@dataclass(frozen=True)
class Valid:
    """Source that must produce no finding of the rule."""

    source: str
    files: tuple[tuple[str, str], ...] = ()  # extra project files: (relative path, source)


@dataclass(frozen=True)
class Invalid:
    """Source that must produce a finding of the rule (on ``line`` when given)."""

    source: str
    line: Optional[int] = None
    fixed: Optional[str] = None
    files: tuple[tuple[str, str], ...] = ()
    message: Optional[str] = None  # a substring the message must contain


@dataclass(frozen=True)
class Finding:
    """What a rule reports, before selection, suppression and formatting.

    ``data`` holds the fields the message is rendered from (see :meth:`Rule.report`);
    ``data["variant"]``, when present, names which of the rule's ``messages`` it used.
    """

    code: str
    path: str
    span: Span
    message: str
    fix: Optional[Fix] = None
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    entry_points: tuple[str, ...] = ()
    related: tuple[Related, ...] = ()


_REGISTRY: dict[str, type["Rule"]] = {}


def _kebab(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


class Rule:
    """Base class of every rule. Subclasses set the class attributes and ``check``."""

    code: ClassVar[str]
    message: ClassVar[str]  # the message template, documented for users
    # Other wordings of the finding, by variant name (rendered like ``message``).
    messages: ClassVar[Mapping[str, str]] = {}
    fix_title: ClassVar[Optional[str]] = None
    fix_applicability: ClassVar[Optional[Applicability]] = None
    framework: ClassVar[str] = "any"
    # Where what the rule finds can change a run: "any", or "cuda" (a CUDA flag or
    # kernel: it cannot explain how two CPU runs differ). `verify`/`profile` hints use it.
    devices: ClassVar[str] = "any"
    severity: ClassVar[Severity] = Severity.WARNING
    VALID: ClassVar[list[Any]] = []
    INVALID: ClassVar[list[Invalid]] = []
    # The rule's fix, registered in the rule's own module with ``@MyRule.fix_planner``:
    # ``(planner, diagnostic) -> FixAction | None`` (see reprolint.fixes.planning). A rule
    # has a fix exactly when it has a planner. ``fix_precheck`` (``@MyRule.fix_precheck``)
    # answers "would the planner give a fix?" without parsing (None: cannot tell cheaply).
    plan_fix: ClassVar[Optional[Callable[..., Any]]] = None
    fix_precheck: ClassVar[Optional[Callable[..., Optional[bool]]]] = None
    # ``(planner, diagnostic) -> Applicability``: the fix's level for this finding where
    # it depends on the program (``@MyRule.fix_leveller``); else ``fix_applicability``.
    fix_level: ClassVar[Optional[Callable[..., Any]]] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        code = cls.__dict__.get("code")
        if code is None:
            return
        if code in _REGISTRY and _REGISTRY[code] is not cls:
            raise ValueError(f"rule code {code} registered twice")
        _REGISTRY[code] = cls

    @classmethod
    def fix_planner(cls, plan: Callable[..., Any]) -> Callable[..., Any]:
        """Decorator: ``plan`` plans this rule's fix from a finding's data."""
        cls.plan_fix = staticmethod(plan)  # type: ignore[assignment]
        return plan

    @classmethod
    def fix_prechecker(cls, test: Callable[..., Optional[bool]]) -> Callable[..., Optional[bool]]:
        """Decorator: ``test`` tells cheaply whether ``plan_fix`` would give a fix."""
        cls.fix_precheck = staticmethod(test)  # type: ignore[assignment]
        return test

    @classmethod
    def acts_on_cpu(cls, data: Mapping[str, Any]) -> bool:
        """Whether the finding (its data) can make two runs on the CPU differ."""
        if cls.devices != "cuda":
            return True
        return "CPU" in str(data.get("device") or "")  # an op finding: "CPU and CUDA"

    @classmethod
    def fix_leveller(cls, level: Callable[..., Any]) -> Callable[..., Any]:
        """Decorator: ``level`` gives the fix's level for one finding."""
        cls.fix_level = staticmethod(level)  # type: ignore[assignment]
        return level

    @classmethod
    def name(cls) -> str:
        return _kebab(cls.__name__)

    @classmethod
    def doc(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or "")

    @classmethod
    def section(cls, title: str) -> str:
        """The text of one ``## title`` section of the doc."""
        match = re.search(
            rf"^## {re.escape(title)}\s*$\n(.*?)(?=^## |\Z)", cls.doc(), re.M | re.S
        )
        return match.group(1).strip() if match else ""

    @classmethod
    def summary(cls) -> str:
        first = cls.section("What it does").split("\n\n")[0]
        return " ".join(first.split())

    @classmethod
    def fixable(cls) -> str:
        return cls.fix_applicability.value if cls.fix_applicability else "no"

    @classmethod
    def template(cls, variant: Optional[str] = None) -> str:
        """The message template of a variant (None: the main ``message``)."""
        return cls.message if variant is None else cls.messages[variant]

    @classmethod
    def render(cls, data: Mapping[str, Any]) -> str:
        """The message of a finding with these fields."""
        return cls.template(data.get("variant")).format_map(data)

    def report(
        self,
        path: str,
        span: Span,
        /,
        *,
        entry_points: Iterable[str] = (),
        related: Iterable[Related] = (),
        **data: Any,
    ) -> Finding:
        """A finding whose message is the rule's template rendered with ``data``.

        Pass ``variant=NAME`` to use ``messages[NAME]`` instead of ``message``.
        """
        if data.get("variant") is None:
            data.pop("variant", None)
        return Finding(
            self.code, path, span, self.render(data), data=data,
            entry_points=tuple(entry_points), related=tuple(related),
        )

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        return iter(())


def registered_rules() -> Mapping[str, type[Rule]]:
    """Code -> rule class of every rule class defined so far (read only). Every rule of
    reprolint: :func:`reprolint.checks.registry.all_rules`."""
    return MappingProxyType(_REGISTRY)
