"""Project imports that resolve to nothing in the files of a check.

Checking one folder of a repository (``reprolint check projects/adder``) leaves its
imports of the repository's own packages (``import mingpt.model``) unresolved: the
program model cannot follow them, so seeds and draws in those packages are not seen and
the check may pass silently. :func:`missing_project_imports` finds such imports whose
top-level package is present in a folder above the checked one, so the CLI can say which
were not found and suggest checking from the repository root (a note, not a finding).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from reprolint.analysis.facts import EXTERNAL_ROOTS
from reprolint.analysis.project_index import ProgramIndex

__all__ = ["MissingImport", "missing_project_imports"]

_REPOSITORY_MARKERS = (".git", "pyproject.toml", "setup.py", "setup.cfg")
# Known libraries, and reprolint itself (`import reprolint.runtime` is what `fix` inserts).
_SKIPPED = EXTERNAL_ROOTS | {"reprolint"}
_MAX_LEVELS = 6  # folders searched above a checked folder when no repository marker is met


@dataclass(frozen=True)
class MissingImport:
    """A top-level package the checked files import but do not contain."""

    package: str  # e.g. "mingpt"
    modules: tuple[str, ...]  # the dotted imports, e.g. ("mingpt.model", "mingpt.utils")
    importers: tuple[str, ...]  # the checked files that import it
    found_in: str  # the folder above the checked ones that holds it

    def note(self) -> str:
        """The line the CLI prints (after ``reprolint: note:``)."""
        imports = ", ".join(f"`{m}`" for m in self.modules)
        importers = ", ".join(self.importers[:3]) + (" and others" if len(self.importers) > 3 else "")
        return (
            f"{imports} (imported by {importers}) not found among the checked files; "
            f"`{self.package}` is in {self.found_in}: check from the repository root "
            f"(`reprolint check .` in {self.found_in}) so that its code is analysed too"
        )


def _ancestors(folder: Path) -> Iterable[Path]:
    """Folders above ``folder``, up to the repository root (or a few levels)."""
    for level, parent in enumerate(folder.parents):
        if level >= _MAX_LEVELS:
            return
        yield parent
        if any((parent / marker).exists() for marker in _REPOSITORY_MARKERS):
            return


def _holds(folder: Path, package: str) -> bool:
    return (folder / f"{package}.py").is_file() or (folder / package / "__init__.py").is_file() or (
        (folder / package).is_dir() and any((folder / package).glob("*.py"))
    )


def missing_project_imports(index: ProgramIndex, roots: Iterable[str]) -> list[MissingImport]:
    """Absolute imports no checked file provides whose package sits above a checked folder."""
    wanted: dict[str, tuple[set[str], set[str]]] = {}
    for path, facts in index.facts.items():
        for dotted in facts.imported_modules:
            if dotted.startswith("."):
                continue
            package = dotted.split(".")[0]
            if package in _SKIPPED or index.resolve_module(path, package) is not None:
                continue
            modules, importers = wanted.setdefault(package, (set(), set()))
            modules.add(dotted)
            importers.add(path)
    if not wanted:
        return []
    folders = []
    for root in roots:
        folder = Path(root).resolve()
        folders.append(folder)
    out = []
    for package, (modules, importers) in sorted(wanted.items()):
        for folder in folders:
            home = next((a for a in _ancestors(folder) if _holds(a, package)), None)
            if home is not None:
                # `from a.b import c` records `a.b` and `a.b.c` (c may be a module): name `a.b`.
                shortest = tuple(sorted(m for m in modules if not any(m.startswith(n + ".") for n in modules)))
                out.append(MissingImport(package, shortest, tuple(sorted(importers)), str(home)))
                break
    return out
