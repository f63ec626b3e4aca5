"""The program model: entry points, the project import graph, and "seeded before?".

A *program* is an entry point plus every project module it imports, transitively.
For each program the model simulates execution over the per-module facts:

* module-level statements run in order; importing a project module runs its top level
  once, at the import; the ``__main__`` block runs only for the entry module;
* a resolvable call to a project function or class runs its body at the call (once: a
  body already run is not run again, recursion is cut);
* both branches of an ``if`` run, in order; loop bodies run once;
* function bodies never reached by a resolvable call (``forward``, callbacks, methods
  called on objects) run after everything else, in file order;
* deferred draws (dropout masks, shuffling loaders) happen after everything else.

Import resolution mirrors ``sys.path[0]``: ``import a.b`` from ``pkg/x.py`` looks for
``a/b.py`` or ``a/b/__init__.py`` in ``pkg/``, then in each parent folder up to the root
of the scan; relative imports resolve against the importing file's package.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, Iterable, NamedTuple, Optional

from reprolint.analysis.facts import (
    UNKNOWN,
    Call,
    Cond,
    Draw,
    Event,
    FunctionFacts,
    Guard,
    Import,
    ModuleFacts,
    Seed,
)

__all__ = ["Blame", "DrawOutcome", "Program", "ProgramIndex", "SeedOutcome", "analyse_programs"]

_MAX_DEPTH = 60

# A branch condition on the way to an event: (file, condition, span and text of the
# guarded seed or call that carries it).
_Guarded = tuple[str, Cond, Any, str]


class Blame(NamedTuple):
    """The condition that skips a seeding call with the default options."""

    path: str  # the file of the guarded call (and of its condition)
    span: Any  # the guarded call (the seed, or the project call leading to it)
    call_text: str
    condition: str  # the condition as written, negated when its false branch seeds


@dataclass(frozen=True)
class SeedOutcome:
    """A seeding event as it ran in a program."""

    seed: Seed
    path: str
    default_path: bool  # runs under the default values of the program's options
    # Where the condition that skips it by default is: (path, span and text of the
    # guarded call, condition text); None when it runs by default.
    blame: Optional[Blame]
    via: Optional[tuple[str, Call]] = None  # the project call that led here, if any


@dataclass(frozen=True)
class DrawOutcome:
    draw: Draw
    path: str
    seeded_before: bool
    later_seed: Optional[tuple[str, Seed]]  # when seeded only after the draw


@dataclass
class Program:
    entry: str
    modules: list[str] = field(default_factory=list)
    seeds: list[SeedOutcome] = field(default_factory=list)
    draws: list[DrawOutcome] = field(default_factory=list)
    helper_calls: list[tuple[str, Call, frozenset[str]]] = field(default_factory=list)
    arg_defaults: dict[str, Any] = field(default_factory=dict)
    arg_entropy: dict[str, str] = field(default_factory=dict)

    @property
    def seeded_libraries(self) -> set[str]:
        return {lib for outcome in self.seeds for lib in outcome.seed.libs}


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
        self._folders: dict[str, str] = {}

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

    def resolve_call(self, caller: str, target: str) -> Optional[tuple[str, str]]:
        """(file, function qualname) a project call goes to; classes go to ``__init__``."""
        key = (caller, target)
        if key not in self._calls:
            self._calls[key] = self._resolve_call(caller, target)
        return self._calls[key]

    def _resolve_call(self, caller: str, target: str) -> Optional[tuple[str, str]]:
        if target.startswith(":"):
            return self._resolve_in(caller, target[1:])
        level = len(target) - len(target.lstrip("."))
        names = [p for p in target.split(".") if p]
        for split in range(len(names) - 1, 0, -1):
            module = "." * level + ".".join(names[:split])
            found = self.resolve_module(caller, module)
            if found is not None:
                return self._resolve_in(found, ".".join(names[split:]))
        return None

    def _resolve_in(self, path: str, qualname: str) -> Optional[tuple[str, str]]:
        facts = self.facts[path]
        if qualname in facts.functions:
            return path, qualname
        if qualname in facts.classes:
            return self._constructor(path, qualname, depth=0)
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

    def imported_by_others(self) -> set[str]:
        imported: set[str] = set()
        for path, facts in self.facts.items():
            for dotted in facts.imported_modules:
                for found in self.package_chain(path, dotted):
                    if found != path:
                        imported.add(found)
        return imported

    def entry_points(self, configured: Iterable[str] = ()) -> list[str]:
        """Modules with a ``__main__`` block, scripts nobody imports, and configured ones."""
        configured = set(configured)
        imported = self.imported_by_others()
        entries = []
        for path, facts in self.facts.items():
            if path in configured or facts.has_main_guard:
                entries.append(path)
            elif facts.top_level_work and path not in imported:
                entries.append(path)
        return sorted(entries)


class _Simulation:
    def __init__(self, index: ProgramIndex, entry: str) -> None:
        self.index = index
        self.entry = entry
        self.program = Program(entry)
        self.ran_modules: set[str] = set()
        self.ran_functions: set[tuple[str, str]] = set()
        self.seeded: dict[str, tuple[str, Seed]] = {}
        self.pending: list[tuple[str, Draw, tuple[str, Seed] | None]] = []
        self.draw_status: dict[tuple[str, Any], tuple[str, Draw, bool]] = {}
        self.depth = 0

    def run(self) -> Program:
        self.run_module(self.entry, as_main=True)
        # Bodies nobody called (methods, callbacks) run after everything else.
        done = 0
        while done < len(self.program.modules):
            path = self.program.modules[done]
            done += 1
            for fn in list(self.index.facts[path].functions.values()):
                if (path, fn.qualname) not in self.ran_functions:
                    self.run_function(path, fn, (), None)
        for path, draw, _ in self.pending:
            self.check_draw(path, draw, deferred=True)
        for (path, _), (_, draw, seeded_before) in self.draw_status.items():
            later = None
            if not seeded_before and draw.library in self.seeded:
                later = self.seeded[draw.library]
            self.program.draws.append(DrawOutcome(draw, path, seeded_before, later))
        return self.program

    def run_module(self, path: str, as_main: bool = False) -> None:
        if path in self.ran_modules:
            return
        self.ran_modules.add(path)
        self.program.modules.append(path)
        facts = self.index.facts[path]
        self.program.arg_defaults = {**facts.arg_defaults, **self.program.arg_defaults}
        self.program.arg_entropy = {**facts.arg_entropy, **self.program.arg_entropy}
        in_guard = False
        for event in facts.events:
            if isinstance(event, Guard):
                in_guard = event.begin
                continue
            if in_guard and not as_main:
                continue
            self.run_event(path, event, (), None)

    def run_function(
        self, path: str, fn: FunctionFacts, conds: tuple[_Guarded, ...],
        via: Optional[tuple[str, Call]],
    ) -> None:
        key = (path, fn.qualname)
        if key in self.ran_functions or self.depth > _MAX_DEPTH:
            return
        self.ran_functions.add(key)
        self.depth += 1
        for event in fn.events:
            self.run_event(path, event, conds, via)
        self.depth -= 1

    def run_event(
        self, path: str, event: Event, outer: tuple[_Guarded, ...],
        via: Optional[tuple[str, Call]],
    ) -> None:
        if isinstance(event, Import):
            chain = self.index.package_chain(path, event.module)
            for module in chain:
                self.run_module(module)
            return
        conds = outer + tuple(
            (path, c, event.span, event.text) for c in getattr(event, "conds", ())
        )
        if isinstance(event, Seed):
            self.program.seeds.append(self.seed_outcome(path, event, conds, via))
            for lib in event.libs:
                self.seeded.setdefault(lib, (path, event))
            return
        if isinstance(event, Draw):
            if event.deferred:
                self.pending.append((path, event, None))
            else:
                self.check_draw(path, event, deferred=False)
            return
        if isinstance(event, Call):
            resolved = self.index.resolve_call(path, event.target)
            if resolved is None:
                return
            file, qualname = resolved
            if file not in self.ran_modules:
                # Calling into a module means it was imported (maybe by a path we missed).
                self.run_module(file)
            fn = self.index.facts[file].functions[qualname]
            libs = function_seeds(self.index, file, qualname)
            if libs:
                self.program.helper_calls.append((path, event, libs))
            self.run_function(file, fn, conds, via or (path, event))

    def seed_outcome(
        self, path: str, seed: Seed, conds: tuple[_Guarded, ...],
        via: Optional[tuple[str, Call]],
    ) -> SeedOutcome:
        blame = None
        for cond_path, (tree, polarity, text), span, call_text in conds:
            value = evaluate(tree, self.lookup)
            if value is not None and value != polarity:
                blame = Blame(cond_path, span, call_text, text if polarity else f"not ({text})")
                break
        return SeedOutcome(seed, path, blame is None, blame, via)

    def lookup(self, name: str) -> Any:
        return self.program.arg_defaults.get(name, UNKNOWN)

    def check_draw(self, path: str, draw: Draw, deferred: bool) -> None:
        key = (path, draw.span)
        seeded_now = draw.library in self.seeded
        previous = self.draw_status.get(key)
        if previous is not None and not previous[2]:
            return  # already seen unseeded: stays a finding
        self.draw_status[key] = (path, draw, seeded_now)


def evaluate(tree: Any, lookup: Any) -> Optional[bool]:
    """Truth of a condition under the default option values; None when unknown."""
    kind = tree[0]
    if kind == "not":
        inner = evaluate(tree[1], lookup)
        return None if inner is None else not inner
    if kind in ("and", "or"):
        values = [evaluate(t, lookup) for t in tree[1:]]
        if kind == "and":
            if False in values:
                return False
            return None if None in values else True
        if True in values:
            return True
        return None if None in values else False
    if kind in ("isnone", "notnone", "truthy", "cmp"):
        value = _value(tree[1], lookup)
        if value == UNKNOWN:
            return None
        if kind == "isnone":
            return value is None
        if kind == "notnone":
            return value is not None
        if kind == "truthy":
            return bool(value)
        op, right = tree[2], tree[3]
        try:
            return {
                "==": value == right, "!=": value != right,
                "<": value < right, "<=": value <= right,
                ">": value > right, ">=": value >= right,
            }[op]
        except TypeError:
            return None if value is not None else (op == "!=")
    return None


def _value(tree: Any, lookup: Any) -> Any:
    if tree[0] == "const":
        return tree[1]
    if tree[0] == "attr":
        return lookup(tree[1])
    return UNKNOWN


def function_seeds(index: ProgramIndex, path: str, qualname: str) -> frozenset[str]:
    """Libraries a project function seeds, transitively through project calls."""
    cache: dict[tuple[str, str], frozenset[str]] = index.__dict__.setdefault("_seed_cache", {})
    return _function_seeds(index, path, qualname, cache, set())


def _function_seeds(
    index: ProgramIndex, path: str, qualname: str,
    cache: dict[tuple[str, str], frozenset[str]], visiting: set[tuple[str, str]],
) -> frozenset[str]:
    key = (path, qualname)
    if key in cache:
        return cache[key]
    if key in visiting:
        return frozenset()
    visiting.add(key)
    libs: set[str] = set()
    for event in index.facts[path].functions[qualname].events:
        if isinstance(event, Seed):
            libs.update(event.libs)
        elif isinstance(event, Call):
            resolved = index.resolve_call(path, event.target)
            if resolved is not None:
                libs.update(_function_seeds(index, *resolved, cache, visiting))
    visiting.discard(key)
    cache[key] = frozenset(libs)
    return cache[key]


def analyse_programs(index: ProgramIndex, entries: Iterable[str]) -> list[Program]:
    return [_Simulation(index, entry).run() for entry in entries]
