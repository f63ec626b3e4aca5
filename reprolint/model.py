"""The data reprolint returns: diagnostics, their spans and their fixes.

Every type here is a frozen dataclass so results can be cached, compared and sent
between processes. Lines are 1-based; columns are 1-based (as ruff and editors show
them); an end column points one past the last character.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

__all__ = [
    "Applicability",
    "Diagnostic",
    "Edit",
    "Fix",
    "Related",
    "Severity",
    "Span",
]


class Applicability(str, enum.Enum):
    """How safe a fix is, as in ruff."""

    # Safe: every run of the fixed program is a run the original could have produced.
    SAFE = "safe"
    # Unsafe: changes an outcome the program already fixed, or can make it fail.
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"  # described, never applied


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, order=True)
class Span:
    """A region of a source file: 1-based lines and columns, end exclusive."""

    start_line: int
    start_col: int
    end_line: int
    end_col: int

    def to_dict(self) -> dict[str, int]:
        return {
            "line": self.start_line,
            "column": self.start_col,
            "end_line": self.end_line,
            "end_column": self.end_col,
        }


@dataclass(frozen=True)
class Edit:
    """Replace the text of ``span`` with ``content`` (an insertion has an empty span)."""

    span: Span
    content: str

    def to_dict(self) -> dict[str, Any]:
        return {"content": self.content, **self.span.to_dict()}


@dataclass(frozen=True)
class Fix:
    applicability: Applicability
    title: str
    edits: tuple[Edit, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "applicability": self.applicability.value,
            "title": self.title,
            "edits": [e.to_dict() for e in self.edits],
        }


@dataclass(frozen=True)
class Related:
    """Another place a finding concerns (the seed that runs too late, the site a program
    takes its order from), shown in JSON as ``related`` and in SARIF as ``relatedLocations``."""

    path: str
    span: Span
    message: str
    # Notebooks: the 1-based code cell of the span (its lines are cell-relative), as in
    # Diagnostic; JSON gives ``cell`` only for notebook locations.
    cell: Optional[int] = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path}
        if self.cell is not None:
            out["cell"] = self.cell
        out.update(line=self.span.start_line, column=self.span.start_col, message=self.message)
        return out


@dataclass(frozen=True)
class Diagnostic:
    """One finding: a rule code at a place in a file, with a message and maybe a fix."""

    code: str
    name: str
    message: str
    path: str
    span: Span
    severity: Severity = Severity.WARNING
    fix: Optional[Fix] = None
    # Notebooks: the 1-based code cell the span's lines belong to (lines are cell-relative).
    cell: Optional[int] = None
    # What the message is rendered from (the rule's ``message`` template and its fields:
    # which call, which library, which seed...). Fixes and tools read these, never the text.
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    entry_points: tuple[str, ...] = ()  # the programs (entry points) the finding belongs to
    related: tuple[Related, ...] = ()

    @property
    def sort_key(self) -> tuple[str, int, int, int, str]:
        return (self.path, self.cell or 0, self.span.start_line, self.span.start_col, self.code)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "message": self.message,
            "path": self.path,
            "cell": self.cell,
            **self.span.to_dict(),
            "severity": self.severity.value,
            "fix": self.fix.to_dict() if self.fix else None,
            "entry_points": list(self.entry_points),
            "related": [r.to_dict() for r in self.related],
        }
