"""What rules query: the program model of one check.

:class:`CheckContext` holds the per-module facts, the program index, the analysed
programs and the settings of one check. It belongs to the analysis layer (the rules in
``reprolint.checks`` read it; the analysis never imports the rules), and
``reprolint.checks.base`` offers it to rule modules beside ``Rule`` and ``Finding``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Optional

from reprolint.model import Span

if TYPE_CHECKING:
    from reprolint.analysis.execution import ExecutionModel
    from reprolint.analysis.facts import ModuleFacts
    from reprolint.analysis.program import Program
    from reprolint.analysis.project_index import ProgramIndex
    from reprolint.config import Settings

__all__ = ["CheckContext"]


@dataclass
class CheckContext:
    """Everything rules may look at: per-module facts and the analysed programs.

    ``memo`` holds results several rules share within one check (keyed by the module
    that computes them), so no rule stores state in another object.
    """

    facts: dict[str, "ModuleFacts"]
    index: "ProgramIndex"
    programs: list["Program"]
    settings: "Settings"
    sources: dict[str, str] = field(default_factory=dict)
    model: Optional["ExecutionModel"] = None
    memo: dict[str, Any] = field(default_factory=dict)
    # path -> line -> codes suppressed there by `# noqa` ("*": every code); rules that
    # report a cause at its first site move to the next site when that one is suppressed.
    suppressions: Mapping[str, Mapping[int, Any]] = field(default_factory=dict)

    def suppressed(self, code: str, path: str, span: Span) -> bool:
        marks = self.suppressions.get(path, {})
        return any(
            "*" in marks.get(n, ()) or code in marks.get(n, ())
            for n in {span.start_line, span.end_line}
        )

    @property
    def all_programs(self) -> list["Program"]:
        """The programs, then every module no program reaches, as a library program."""
        found = self.memo.get("all_programs")
        if found is None:
            from reprolint.analysis.execution import ExecutionModel
            from reprolint.analysis.program import library_programs

            if self.model is None:
                self.model = ExecutionModel(self.index)
            found = self.memo["all_programs"] = [*self.programs, *library_programs(self.model, self.programs)]
        return found  # type: ignore[no-any-return]
