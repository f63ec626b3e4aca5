"""The files of one scan and how they import and call each other (memoised).

Import resolution mirrors ``sys.path[0]``: ``import a.b`` from ``pkg/x.py`` looks for
``pkg/a/b.py`` (or its package), then in each folder above, up to the roots of the scan;
relative imports resolve against the importing file's package.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Iterable, Optional

from reprolint.analysis.facts import ModuleFacts
from reprolint.analysis.test_modules import is_test_module
from reprolint.catalog.frameworks import CLOSED_BASES

__all__ = ["ProgramIndex"]

_OBJECT = frozenset({":object", "object", "builtins.object"})


class ProgramIndex:
    """Resolves imports and call targets between the files of one scan (memoised)."""

    def __init__(self, facts: dict[str, ModuleFacts], roots: Iterable[str] = ()) -> None:
        self.facts = facts
        self.paths = {str(PurePosixPath(p)): p for p in facts}
        self.roots = {str(PurePosixPath(r)) for r in roots}
        self._dirs: dict[str, list[str]] = {}
        self._modules: dict[tuple[str, str], Optional[str]] = {}
        self._chains: dict[tuple[str, str], list[str]] = {}
        self._calls: dict[tuple[str, str], Optional[tuple[str, str]]] = {}
        self._classes: dict[tuple[str, str], Optional[tuple[str, str]]] = {}
        self._block_mentions: dict[str, dict[str, list[tuple[str, str]]]] = {}
        self._folders: dict[str, str] = {}
        self.include_tests = False  # set by entry_points(include_tests=...)
        self._tests: dict[str, bool] = {}
        self._imported: Optional[set[str]] = None
        self._derived: Optional[frozenset[str]] = None
        self._standalone: dict[tuple[str, str], bool] = {}

    def is_test(self, path: str) -> bool:
        """Whether a module of the scan is a test module (:func:`is_test_module`, below
        the scan's roots)."""
        known = self._tests.get(path)
        if known is None:
            known = self._tests[path] = is_test_module(path, self.facts[path], self.roots)
        return known

    def _folder(self, path: str) -> str:
        # Memoised: building a PurePosixPath per lookup was most of the program model's
        # time on large projects (the memo keys of resolve_module/package_chain).
        folder = self._folders.get(path)
        if folder is None:
            folder = self._folders[path] = str(PurePosixPath(path).parent)
        return folder

    def _search_dirs(self, directory: str) -> list[str]:
        found = self._dirs.get(directory)
        if found is None:
            here = PurePosixPath(directory)
            found = []
            for folder in (here, *here.parents):
                found.append(str(folder))
                if str(folder) in self.roots:
                    break
            self._dirs[directory] = found
        return found

    def _file_for(self, directory: str, dotted: str) -> Optional[str]:
        parts = [p for p in dotted.split(".") if p]
        base = "/".join([directory, *parts]) if directory != "." else "/".join(parts)
        if not parts:
            return self.paths.get(f"{directory}/__init__.py" if directory != "." else "__init__.py")
        return self.paths.get(base + ".py") or self.paths.get(base + "/__init__.py")

    def resolve_module(self, importer: str, dotted: str) -> Optional[str]:
        """The project file that ``import dotted`` in ``importer`` loads, if any."""
        directory = self._folder(importer)
        key = (directory, dotted)
        if key in self._modules:
            return self._modules[key]
        found = None
        if dotted.startswith("."):
            level = len(dotted) - len(dotted.lstrip("."))
            package = PurePosixPath(directory)
            for _ in range(level - 1):
                package = package.parent
            found = self._file_for(str(package), dotted.lstrip("."))
        else:
            for folder in self._search_dirs(directory):
                found = self._file_for(folder, dotted)
                if found is not None:
                    break
        self._modules[key] = found
        return found

    def package_chain(self, importer: str, dotted: str) -> list[str]:
        """Files run by ``import a.b.c``: a/__init__, a/b/__init__, a/b/c (those present)."""
        key = (self._folder(importer), dotted)
        chain = self._chains.get(key)
        if chain is not None:
            return chain
        if dotted.startswith("."):
            found = self.resolve_module(importer, dotted)
            chain = [found] if found else []
        else:
            parts = dotted.split(".")
            chain = []
            for i in range(1, len(parts) + 1):
                found = self.resolve_module(importer, ".".join(parts[:i]))
                if found is not None:
                    chain.append(found)
        self._chains[key] = chain
        return chain

    def standalone_class(self, path: str, cls: str) -> bool:
        """Class ``cls`` of ``path`` is on library bases only (``object``, or a base whose
        library code calls a known set of methods: ``torch.nn.Module``) and no class of
        the scan derives from it: what its methods do and which attributes they read is
        its own business (a project subclass could override a method, or read an
        attribute, where the resolved calls do not show it)."""
        key = (path, cls)
        known = self._standalone.get(key)
        if known is None:
            if self._derived is None:
                # the last part of every base any class of the scan names (`Base` for
                # `:Base`, `models.Base`): a class of such a name may have subclasses
                self._derived = frozenset(
                    base.rpartition(".")[2].lstrip(":")
                    for facts in self.facts.values() for bases in facts.classes.values() for base in bases)
            bases = self.facts[path].classes.get(cls)
            known = self._standalone[key] = bases is not None and cls not in self._derived and all(
                base in _OBJECT or base in CLOSED_BASES for base in bases)
        return known

    def block_mentions(self, path: str) -> dict[str, list[tuple[str, str]]]:
        """Name -> the top-level classes ("class", name), functions ("def", name) and
        tables ("table", name) of a module whose bodies or values mention it
        (ModuleFacts.class_mentions/def_mentions/table_mentions), once."""
        found = self._block_mentions.get(path)
        if found is None:
            found = self._block_mentions[path] = {}
            facts = self.facts[path]
            kinds = (("class", facts.class_mentions), ("def", facts.def_mentions), ("table", facts.table_mentions))
            for kind, blocks in kinds:
                for block, names in blocks.items():
                    for name in names:
                        found.setdefault(name, []).append((kind, block))
        return found

    def resolve_call(self, caller: str, target: str) -> Optional[tuple[str, str]]:
        """(file, function qualname) a project call goes to; classes go to ``__init__``."""
        key = (caller, target)
        if key not in self._calls:
            self._calls[key] = self._resolve_call(caller, target)
        return self._calls[key]

    def resolve_class(self, caller: str, target: str) -> Optional[tuple[str, str]]:
        """(file, class qualname) of a call that builds a project class (None for any
        other call), whether or not the class has a constructor of its own."""
        key = (caller, target)
        if key not in self._classes:
            self._classes[key] = self._resolve_call(caller, target, classes=True)
        return self._classes[key]

    def _resolve_call(self, caller: str, target: str, classes: bool = False) -> Optional[tuple[str, str]]:
        if target.startswith(":"):
            return self._resolve_in(caller, target[1:], classes=classes)
        return self._resolve_from(caller, target, (), classes)

    def _resolve_from(
        self, caller: str, target: str, seen: tuple[str, ...], classes: bool = False,
    ) -> Optional[tuple[str, str]]:
        level = len(target) - len(target.lstrip("."))
        names = [p for p in target.split(".") if p]
        for split in range(len(names) - 1, 0, -1):
            module = "." * level + ".".join(names[:split])
            found = self.resolve_module(caller, module)
            if found is not None:
                return self._resolve_in(found, ".".join(names[split:]), seen, classes)
        return None

    def _resolve_in(
        self, path: str, qualname: str, seen: tuple[str, ...] = (), classes: bool = False,
    ) -> Optional[tuple[str, str]]:
        facts = self.facts[path]
        if qualname in facts.functions:
            return None if classes else (path, qualname)
        if qualname in facts.classes:
            return (path, qualname) if classes else self._constructor(path, qualname, depth=0)
        # a name the module imports (`from .random import random_seed` in a package's
        # __init__, re-exported to `from timm.utils import random_seed`)
        head, _, rest = qualname.partition(".")
        imported = facts.from_imports.get(head)
        if imported is not None and path not in seen:
            target = f"{imported}.{rest}" if rest else imported
            resolved = self._resolve_from(path, target, (*seen, path), classes)
            if resolved is not None:
                return resolved
        # a name a star import brought in (`from models import *`, re-exported by a
        # package's `from .dla import *`), as Python binds it: the last import wins
        for module in reversed(getattr(facts, "star_imports", ())):
            found = self.resolve_module(path, module)
            if found is not None and found not in seen and found != path:
                resolved = self._resolve_in(found, qualname, (*seen, path), classes)
                if resolved is not None:
                    return resolved
        return None

    def _constructor(self, path: str, cls: str, depth: int) -> Optional[tuple[str, str]]:
        facts = self.facts[path]
        init = f"{cls}.__init__"
        if init in facts.functions:
            return path, init
        if depth > 8:
            return None
        for base in facts.classes.get(cls, ()):
            if not base:
                continue
            resolved = None
            if base.startswith(":"):
                name = base[1:]
                if name in facts.classes:
                    resolved = self._constructor(path, name, depth + 1)
            else:
                parts = base.split(".")
                for split in range(len(parts) - 1, 0, -1):
                    module = self.resolve_module(path, ".".join(parts[:split]))
                    if module is not None:
                        name = ".".join(parts[split:])
                        if name in self.facts[module].classes:
                            resolved = self._constructor(module, name, depth + 1)
                        break
            if resolved is not None:
                return resolved
        return None

    def in_package(self, path: str) -> bool:
        """Whether a module is part of a package (an ``__init__.py`` in its folder)."""
        folder = self._folder(path)
        init = f"{folder}/__init__.py" if folder != "." else "__init__.py"
        return init in self.paths and str(PurePosixPath(path)) != init

    def imported_by_others(self) -> set[str]:
        if self._imported is not None:
            return self._imported
        imported: set[str] = set()
        for path, facts in self.facts.items():
            for dotted in facts.imported_modules:
                for found in self.package_chain(path, dotted):
                    if found != path:
                        imported.add(found)
        self._imported = imported
        return imported

    def entry_points(self, configured: Iterable[str] = (), include_tests: bool = False) -> list[str]:
        """Modules with a ``__main__`` block, scripts nobody imports, and configured ones.

        Test modules are not programs unless ``include_tests`` (configured entry points
        always are)."""
        configured = set(configured)
        self.include_tests = include_tests
        imported = self.imported_by_others()
        entries = []
        for path, facts in self.facts.items():
            if path in configured:
                entries.append(path)
            elif not include_tests and self.is_test(path):
                continue
            elif facts.has_main_guard:
                entries.append(path)
            elif facts.top_level_work and path not in imported:
                entries.append(path)
        return sorted(entries)
