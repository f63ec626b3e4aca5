"""The pre-filter: files that cannot change any finding are not parsed by libcst.

A file is skipped (given a stub of facts instead of its real ones) only when all of
these hold, and the argument for each is below:

1. **No trigger word.** No identifier in its text starts with a *trigger word*: every
   name component of every API in the catalogs (``rules/*.toml``) and every identifier
   inside a string constant of reprolint's analysis code (``reprolint/analysis/*.py``:
   the names the fact collector compares with, such as ``"add_argument"``, ``"set"``,
   ``"cuda"``). The fact collector produces a seed, draw, op, flag or local finding
   only for a call or name whose qualified name, or a string whose value, it compares
   with such a name; a qualified name is built from identifiers that are in the text
   (aliases come from import statements in the same file), and a string compared by
   equality or prefix holds the word too. The list is derived, never written by hand,
   so a new rule's names are covered the day its code lands. So such a file has no
   local finding and no event except the structural ones (imports, calls, function and
   class definitions, branch conditions).
2. **Isolated.** None of its imports can resolve to a file of the run, and no import of
   any other file of the run can resolve to it. Imports are read with the stdlib
   ``ast`` (about 7x faster than libcst) and compared as module-path prefixes in both
   directions, from every folder above the importer (a superset of what the program
   model resolves: it follows ``sys.path[0]`` upwards, package ``__init__`` chains, and
   calls through an imported name to a submodule, ``a.b.f()`` after ``import a``).
   Every cross-file link of the program model — running an imported module, resolving
   a call or a base class in another file — starts from an import, so no program ever
   runs this file and it never runs another.
3. **Not an entry point.** No ``__name__`` in its text (so no ``__main__`` block), no
   top-level loop, ``with`` or call statement (the program model's "script" test), and
   not named in ``entry-points``.

With 2 and 3 the file is in no program, so only rules that read every file's facts
could see it, and by 1 it has nothing for them. The stub keeps what other files'
analysis reads from it — its path and its imports — so entry-point detection, which
looks at who imports whom, is unchanged. Findings are therefore identical with and
without the pre-filter (tests/test_prefilter.py checks that on the corpus and on
torch's nn/ folder), provided libcst accepts every file CPython's parser accepts (a
file CPython rejects is never skipped: it gets its RPL900 from the full path).

Measured effect: with today's fact vocabulary, which includes builtins such as ``set``,
``sorted``, ``open`` and ``str`` (RPL401/RPL402), almost every real module holds a
trigger word, so on torch's code the filter skips few files; it pays off on large
repositories where most modules have nothing to do with training.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Iterable, Mapping, Optional

__all__ = ["ColdFile", "cold_file", "select_stubs", "stub_facts", "trigger_words"]

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# A string constant of the analysis code that is a name, a dotted name or a prefix of one
# (prose such as messages and docstrings is not: the collector never compares with it).
_NAME_LIKE = re.compile(r"\.?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\.\*?|:)?")
_RE_FUNCS = frozenset({"compile", "match", "fullmatch", "search", "findall", "finditer", "sub", "split"})


_known_words: Optional[tuple[str, ...]] = None


def use_words(words: Iterable[str], prefixes: Iterable[str]) -> None:
    """Reuse lists :func:`trigger_words` and :func:`prefix_words` made earlier (kept in
    the cache: 0.1 s saved per run)."""
    global _known_words, _known_prefixes
    _known_words = tuple(words)
    _known_prefixes = tuple(prefixes)
    _trigger.cache_clear()


def trigger_words() -> tuple[str, ...]:
    """Every name the analysis may react to (see the module docstring, point 1)."""
    global _known_words
    if _known_words is None:
        _known_words = _derive_words()
    return _known_words


@functools.lru_cache(maxsize=1)
def _analysis_trees() -> tuple[ast.Module, ...]:
    analysis = Path(__file__).resolve().parent / "analysis"
    return tuple(ast.parse(p.read_text(encoding="utf-8")) for p in sorted(analysis.glob("*.py")))


def _derive_words() -> tuple[str, ...]:
    from reprolint.catalog import catalog_names, load_catalog

    words: set[str] = set()

    def strings(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                strings(item)
        elif isinstance(value, list):
            for item in value:
                strings(item)
        elif isinstance(value, str) and _NAME_LIKE.fullmatch(value):
            words.update(_IDENT.findall(value))  # API names; notes and links are prose

    for name in catalog_names():
        strings(load_catalog(name))
    for tree in _analysis_trees():
        for node in ast.walk(tree):
            # Names compared with: "add_argument", "torch.optim." (a prefix), "cuda:".
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if _NAME_LIKE.fullmatch(node.value):
                    words.update(_IDENT.findall(node.value))
            # Regular expressions run over names or strings: every word they spell.
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) in _RE_FUNCS:
                for arg in node.args[:1]:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        words.update(_IDENT.findall(arg.value))
    words.add("__name__")
    return tuple(sorted(words))


def _derive_prefixes() -> tuple[str, ...]:
    """Words the analysis compares as a prefix or suffix (``.startswith("cuda")``).

    Read from the calls of ``startswith``/``endswith`` in ``reprolint/analysis``: their
    string arguments, tuples of strings, or module-level names bound to either.
    """
    found: set[str] = set()
    for tree in _analysis_trees():
        constants: dict[str, ast.AST] = {}
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                constants[stmt.targets[0].id] = stmt.value
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in ("startswith", "endswith"):
                for arg in node.args[:1]:
                    if isinstance(arg, ast.Name):
                        arg = constants.get(arg.id, arg)
                    for item in ast.walk(arg):
                        if isinstance(item, ast.Constant) and isinstance(item.value, str):
                            found.update(_IDENT.findall(item.value))
    return tuple(sorted(found))


_known_prefixes: Optional[tuple[str, ...]] = None


def prefix_words() -> tuple[str, ...]:
    """The trigger words the analysis compares as prefixes or suffixes of a name."""
    global _known_prefixes
    if _known_prefixes is None:
        _known_prefixes = _derive_prefixes()
    return _known_prefixes


@functools.lru_cache(maxsize=1)
def _trigger() -> "re.Pattern[str]":
    # A whole identifier that is a trigger word, or one that holds a prefix/suffix word.
    whole = "|".join(re.escape(w) for w in sorted(trigger_words(), key=len, reverse=True))
    part = "|".join(re.escape(w) for w in sorted(prefix_words(), key=len, reverse=True))
    pattern = rf"(?<![A-Za-z0-9_])(?:{whole})(?![A-Za-z0-9_])"
    if part:
        pattern += rf"|(?<![A-Za-z0-9_])(?:{part})|(?:{part})(?![A-Za-z0-9_])"
    return re.compile(pattern)


@dataclass(frozen=True)
class ColdFile:
    """What the pre-filter knows of a file it did not give to libcst."""

    imports: tuple[str, ...]  # as the fact collector lists them (imported_modules)
    uses: tuple[str, ...]  # library roots imported


def cold_file(source: str) -> Optional[ColdFile]:
    """A :class:`ColdFile` when points 1 and 3 hold for this source, else None."""
    if sys.version_info < (3, 10):
        return None  # import names have no positions to check against the text
    if _trigger().search(source) is not None:
        return None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # the full path reports it (RPL900)
    if _top_level_work(tree.body):
        return None
    imports: list[str] = []
    uses: set[str] = set()
    nodes = sorted(
        (n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))),
        key=lambda n: (n.lineno, n.col_offset),
    )
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if ast.get_source_segment(source, alias) is None or " " in alias.name:
                    return None
                if not _spelled_as(source, alias, alias.name):
                    return None
                imports.append(alias.name)
                uses.add(alias.name.split(".")[0])
            continue
        base = node.module or ""
        prefix = "." * node.level + base
        if base:
            uses.add(base.split(".")[0])
            segment = ast.get_source_segment(source, node) or ""
            if base not in segment:
                return None  # written with spaces or line breaks inside the name
        if node.level == 0 or base:
            imports.append(prefix)
        for alias in node.names:
            if alias.name == "*":
                continue
            imports.append(f"{prefix}.{alias.name}" if base else f"{prefix}{alias.name}")
    return ColdFile(tuple(dict.fromkeys(imports)), tuple(sorted(uses)))


def _spelled_as(source: str, alias: ast.alias, name: str) -> bool:
    segment = ast.get_source_segment(source, alias) or ""
    return segment == name or segment.startswith(name + " ")


def _top_level_work(body: Iterable[ast.stmt]) -> bool:
    """The program model's "runs code at top level" test, made no stricter."""
    for stmt in body:
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith)):
            return True
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, (ast.Call, ast.Await)):
            return True
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list):
                flat: list[ast.stmt] = []
                for item in inner:
                    flat.extend(item.body if isinstance(item, (ast.ExceptHandler, ast.match_case)) else [item])
                if _top_level_work(flat):
                    return True
    return False


def _module_path(path: str) -> PurePosixPath:
    p = PurePosixPath(path)
    p = p.with_suffix("") if p.suffix == ".py" else p
    return p.parent if p.name == "__init__" else p


def _targets(importer: str, imports: Iterable[str]) -> set[PurePosixPath]:
    """Module paths an importer's imports may reach (prefix-closed below)."""
    folder = PurePosixPath(importer).parent
    out: set[PurePosixPath] = set()
    for dotted in imports:
        level = len(dotted) - len(dotted.lstrip("."))
        parts = [p for p in dotted.lstrip(".").split(".") if p]
        if level:
            base = folder
            for _ in range(level - 1):
                base = base.parent
            out.add(base.joinpath(*parts))
        else:
            for top in (folder, *folder.parents):
                out.add(top.joinpath(*parts))
    return out


def _related(module: PurePosixPath, keys: set[PurePosixPath], above: set[PurePosixPath]) -> bool:
    """``module`` is a key, below one (a submodule) or above one (a package on the way)."""
    return module in keys or module in above or any(parent in keys for parent in module.parents)


def select_stubs(
    cold: Mapping[str, ColdFile],
    imports: Mapping[str, Iterable[str]],
    paths: Iterable[str],
    configured_entries: Iterable[str] = (),
) -> set[str]:
    """The cold files that also pass points 2 and 3 (isolated, not configured entries).

    ``imports``: the imported modules of every analysed file; ``paths``: every file of
    the run (a file that failed to parse still counts as reachable).
    """
    configured = {str(Path(p).resolve()) for p in configured_entries}
    modules = {path: _module_path(path) for path in paths}
    reach: dict[str, tuple[set[PurePosixPath], set[PurePosixPath]]] = {}
    for importer, dotted in (*imports.items(), *((p, c.imports) for p, c in cold.items())):
        keys = _targets(importer, dotted)
        reach[importer] = (keys, {parent for key in keys for parent in key.parents})
    stubs = set()
    for path, info in cold.items():
        if str(Path(path).resolve()) in configured:
            continue
        mine = modules[path]
        if any(
            _related(mine, keys, above)
            for importer, (keys, above) in reach.items() if importer != path
        ):
            continue  # another file may import it
        keys, above = reach[path]
        if any(_related(module, keys, above) for other, module in modules.items() if other != path):
            continue  # it may import another file
        stubs.add(path)
    return stubs


def stub_facts(path: str, info: ColdFile) -> Any:
    """The facts that stand in for a skipped file: its path and its imports."""
    from reprolint.analysis.facts import ModuleFacts

    return ModuleFacts(path=path, imported_modules=info.imports, uses=frozenset(info.uses))
