"""How the programs of a check run the sites a per-site rule reports.

A per-site rule (an unseeded environment, a set's or a listing's order) reports what runs.
Its sites are recorded as usage events where their code is (``ListingOrderTaken``,
``SetOrderTaken``, ``EnvironmentDraw``), so each program's execution places them: a site
runs for a program when its module's top level, or a function a call (or a framework)
runs, holds it on a branch the default options take. A plain function no call of the
program reaches runs for nobody there; a branch an option or a module constant makes
false by default (``if opt.task == "study":``) is not that program's. A parameter's
default alone does not decide: a caller may pass another value.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from reprolint.analysis.context import CheckContext
from reprolint.analysis.program import Role
from reprolint.analysis.usage_events import Usage

__all__ = [
    "DEMOS", "EVALUATES", "LIBRARY_CODE", "SKIPPED", "SiteRun", "TRAINS", "UNREACHED", "build_script", "sites_run",
    "uncalled_helper", "unimported_module",
]

TRAINS = "trains"  # a training program (or library code) runs it on its default path
EVALUATES = "evaluates"  # only evaluation or demo programs run it, an evaluation among them
DEMOS = "demos"  # only demo programs run it (a library module's `__main__` smoke demo...)
SKIPPED = "skipped"  # programs reach it, none on its default path
UNREACHED = "unreached"  # no program runs it at a call: library code, reported


@dataclass(frozen=True)
class SiteRun:
    """How the programs run one site, and the entry points of those that run it."""

    how: str
    entries: tuple[str, ...] = ()


LIBRARY_CODE = SiteRun(UNREACHED)  # a site no program runs: how `sites_run` reads it


def sites_run(ctx: CheckContext, kind: type[Usage]) -> dict[tuple[str, Any], SiteRun]:
    """(path, span) of each ``kind`` site that some program reaches -> how they run it
    (a site no program reaches is absent: read it as ``LIBRARY_CODE``). Test programs count
    only with ``include-tests``. Memoised per check."""
    key = f"site_runs:{kind.__name__}"
    found = ctx.memo.get(key)
    if found is not None:
        return found  # type: ignore[no-any-return]
    runs: dict[tuple[str, Any], str] = {}
    entries: dict[tuple[str, Any], list[str]] = {}
    for program in ctx.all_programs:
        if program.role is Role.TEST and not ctx.settings.include_tests:
            continue
        trains = program.role in (Role.TRAINING, Role.LIBRARY, Role.TEST)
        demo = program.role is Role.DEMO
        for position, path, usage in program.of(kind, default_only=False):
            site = (path, usage.span)
            if program.usage_steps[position].context.uncalled and not program.is_library:
                continue  # no call of this program runs it (library code unless one does)
            if program.skips(position):
                runs.setdefault(site, SKIPPED)
                continue
            named = entries.setdefault(site, [])
            named.extend(e for e in program.entry_points if e not in named)
            if trains:
                runs[site] = TRAINS
            elif demo:
                if runs.get(site) in (None, SKIPPED):
                    runs[site] = DEMOS
            elif runs.get(site) != TRAINS:
                runs[site] = EVALUATES
    found = ctx.memo[key] = {site: SiteRun(how, tuple(entries.get(site, ()))) for site, how in runs.items()}
    return found


def uncalled_helper(ctx: CheckContext, path: str, run: SiteRun, function: Optional[str]) -> bool:
    """A site no program runs (``UNREACHED``) in ``function``, a function of a module that
    entry points import and that is not part of a distributed package (no ``__init__.py``
    beside it, or none of the project's setup files above it: ``_distributed``): a helper
    module of the scripts, and none of them calls that function (nor does a framework run
    it). It runs on no program's path. A function of a package the project builds for
    others that no program here calls is library code a user may call, and stays
    reported; so are the
    functions of a ``hubconf.py`` (``torch.hub.load`` calls them) and a site at a
    module's top level."""
    if run.how != UNREACHED or function is None:
        return False
    if ctx.index.in_package(path) and (
        _distributed(ctx, path) or ("." in function and not _unnamed_plain_method(ctx, path, function))
        or _mentioned(ctx, function)
    ):
        # a package the project builds for others: its API, called or not; in the
        # scripts' own package, a class (built by name: a registry, `eval`, a config) or
        # a function some module names (a table, a callback) may run where no call shows
        return False
    if path.rpartition("/")[2] == "hubconf.py":
        return False  # torch.hub's protocol: `torch.hub.load` calls the functions of a hubconf.py
    facts = ctx.facts.get(path)
    if facts is None or function not in facts.functions:
        return False  # not a function the programs could have run: no claim
    programs = _entry_programs(ctx)
    return any(path in p.modules for p in programs) and not any((path, function) in p.ran_functions for p in programs)


def _unnamed_plain_method(ctx: CheckContext, path: str, function: str) -> bool:
    """``function`` is a method (not a special one) of a class on no base but ``object``
    that no module names, not even in a string (``getattr(env, "get_random_action")``):
    however the class is built, nothing calls that method (no library base calls it)."""
    cls, _, name = function.rpartition(".")
    if "." in cls or (name.startswith("__") and name.endswith("__")):
        return False
    facts = ctx.facts.get(path)
    bases = facts.classes.get(cls) if facts is not None else None
    if bases is None or any(b not in (":object", "object", "builtins.object") for b in bases):
        return False
    return not _mentioned(ctx, name)


def _mentioned(ctx: CheckContext, name: str) -> bool:
    """Whether any module of the project names ``name`` other than in its ``def`` and its
    imports (``ModuleFacts.mentioned`` and the blocks' mentions the index keeps: text,
    strings included), or cannot tell."""
    names = (name, f".{name}")
    for path, facts in ctx.facts.items():
        if facts.mentioned is None:
            return True
        blocks = ctx.index.block_mentions(path)
        if any(n in facts.mentioned or n in blocks for n in names):
            return True
    return False


def _distributed(ctx: CheckContext, path: str) -> bool:
    """Whether the project declares a distribution that may hold ``path``'s package: a
    ``setup.py``, a ``setup.cfg`` with ``[metadata]`` or ``[options]``, or a
    ``pyproject.toml`` with ``[project]``, ``[tool.poetry]`` or ``[build-system]``, in the
    package's folder or a folder above it, up to the roots of the scan (a project checked
    inside another's tree is not that project's distribution). A package no such file
    declares is the scripts' own code, imported by path; what none of them calls runs
    nowhere."""
    memo: dict[str, bool] = ctx.memo.setdefault("site_runs:distributed", {})  # type: ignore[assignment]
    roots = [Path(r or ".").resolve() for r in ctx.index.roots] or [Path(".").resolve()]
    folder = Path(path).resolve().parent
    seen: list[str] = []
    found = False
    while any(folder == root or root in folder.parents for root in roots):
        key = str(folder)
        if key in memo:
            found = memo[key]
            break
        seen.append(key)
        if _declares_distribution(folder):
            found = True
            break
        if folder in roots:
            break
        folder = folder.parent
    for key in seen:
        memo[key] = found
    return found


_DISTRIBUTION_TABLES = {
    "pyproject.toml": ("[project]", "[tool.poetry]", "[build-system]"),
    "setup.cfg": ("[metadata]", "[options]"),
}


def _declares_distribution(folder: Path) -> bool:
    if (folder / "setup.py").is_file():
        return True
    for name, tables in _DISTRIBUTION_TABLES.items():
        try:
            lines = (folder / name).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        if any(line.strip() in tables for line in lines):
            return True
    return False


def _entry_programs(ctx: CheckContext) -> list[Any]:
    key = "site_runs:entry_programs"
    programs = ctx.memo.get(key)
    if programs is None:
        programs = ctx.memo[key] = [p for p in ctx.all_programs if not p.is_library]
    return programs  # type: ignore[no-any-return]


def unimported_module(ctx: CheckContext, path: str) -> bool:
    """A module of a package that the programs here import, which none of them imports
    (directly, through the package's ``__init__.py`` or through another module): the
    package's own programs never run it (a dataset class left out of the registry, a
    plotting module nothing imports). A package no program imports is a library checked
    on its own, and stays reported; so does any module some program imports."""
    top = _top_package(ctx, path)
    if top is None:
        return False
    key = "site_runs:imported_modules"
    found = ctx.memo.get(key)
    if found is None:
        reached = frozenset(m for p in _entry_programs(ctx) for m in p.modules)
        found = ctx.memo[key] = (reached, frozenset(_top_package(ctx, m) for m in reached))
    reached, packages = found
    return path not in reached and top in packages


def _top_package(ctx: CheckContext, path: str) -> Optional[str]:
    """The outermost package folder above ``path`` (``encoding`` for
    ``encoding/datasets/ade20k.py``; also for a module in a folder without an
    ``__init__.py`` inside it, ``rlkit/visualization/plot_util.py``), or None for a
    module outside any package."""
    parts = path.split("/")[:-1]
    for depth in range(1, len(parts) + 1):
        folder = "/".join(parts[:depth])
        if f"{folder}/__init__.py" in ctx.index.paths:
            return folder
    return None


# Packaging libraries: a module that imports one builds or installs the project.
_PACKAGING = frozenset({"setuptools", "distutils", "skbuild", "pybind11"})


def build_script(ctx: CheckContext, path: str) -> bool:
    """A module that imports a packaging library (``setup.py`` calling
    ``setuptools.setup``, a ``torch.utils.cpp_extension`` build list made with setuptools):
    it builds or installs the project. The order it lists sources in decides the order
    a compiler gets them, no training result."""
    facts = ctx.facts.get(path)
    return facts is not None and bool(facts.uses & _PACKAGING)
