"""The package layering: model/config -> analysis -> checks -> api/cli.

The analysis (per-module facts and the program model rules query) never imports the
rules, fixes, reporters or the front ends, at any level: module top, function bodies,
``if TYPE_CHECKING:`` blocks. Between the packages analysis, checks, fixes and reporters,
the imports at a module's top (those it runs when imported, and those under
``if TYPE_CHECKING:``) form no cycle.
"""

from __future__ import annotations

import ast
import importlib
from collections import defaultdict
from pathlib import Path
from typing import Iterator, NamedTuple

import pytest

import reprolint

ROOT = Path(reprolint.__file__).resolve().parent

# What the analysis may not import: the layers built on it.
ABOVE_ANALYSIS = (
    "reprolint.checks",
    "reprolint.fixes",
    "reprolint.fixing",
    "reprolint.reporters",
    "reprolint.cli",
    "reprolint._cli_lint",
    "reprolint.api",
    "reprolint.pipeline",
)
LAYERED_PACKAGES = ("analysis", "checks", "fixes", "reporters")


class ImportSite(NamedTuple):
    target: str  # the imported module, or module.name for ``from module import name``
    line: int
    level: str  # "module" (runs at import), "function", "type-checking"


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def import_sites(source: str, module: str, is_package: bool = False) -> list[ImportSite]:
    """Every import of ``source`` (the module named ``module``), with where it runs."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[ImportSite] = []

    def absolute(node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        parts = package.split(".")
        base = ".".join(parts[: len(parts) - (node.level - 1)])
        return f"{base}.{node.module}" if node.module else base

    def visit(node: ast.AST, level: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                found.extend(ImportSite(a.name, child.lineno, level) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = absolute(child)
                found.extend(ImportSite(f"{base}.{a.name}", child.lineno, level) for a in child.names)
            elif (
                isinstance(child, ast.Call)
                and isinstance(child.func, (ast.Attribute, ast.Name))
                and (child.func.attr if isinstance(child.func, ast.Attribute) else child.func.id)
                in ("import_module", "__import__")
                and child.args
                and isinstance(child.args[0], ast.Constant)
                and isinstance(child.args[0].value, str)
            ):
                found.append(ImportSite(child.args[0].value, child.lineno, level))
                visit(child, level)
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for statement in child.body:
                    visit(ast.Module(body=[statement], type_ignores=[]), "type-checking")
                for statement in child.orelse:
                    visit(ast.Module(body=[statement], type_ignores=[]), level)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                visit(child, "function" if level == "module" else level)
            else:
                visit(child, level)

    visit(ast.parse(source), "module")
    return found


def package_modules() -> Iterator[tuple[str, Path, bool]]:
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        yield ".".join(parts), path, is_package


def _within(target: str, prefix: str) -> bool:
    return target == prefix or target.startswith(prefix + ".")


def _layer(target: str) -> str | None:
    parts = target.split(".")
    if len(parts) >= 2 and parts[0] == "reprolint" and parts[1] in LAYERED_PACKAGES:
        return parts[1]
    return None


def test_the_scanner_sees_imports_at_every_level() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "import reprolint.model\n"
        "from ..checks import base\n"
        "if TYPE_CHECKING:\n"
        "    from reprolint.fixes.planning import FixPlanner\n"
        "def f():\n"
        "    from reprolint.api import check\n"
        "    importlib.import_module('reprolint.reporters.text')\n"
    )
    sites = import_sites(source, "reprolint.analysis.example")
    assert [(s.target, s.level) for s in sites if s.target.startswith("reprolint")] == [
        ("reprolint.model", "module"),
        ("reprolint.checks.base", "module"),
        ("reprolint.fixes.planning.FixPlanner", "type-checking"),
        ("reprolint.api.check", "function"),
        ("reprolint.reporters.text", "function"),
    ]


def test_analysis_imports_no_layer_above_it() -> None:
    wrong = []
    for module, path, is_package in package_modules():
        if not _within(module, "reprolint.analysis"):
            continue
        for site in import_sites(path.read_text(encoding="utf-8"), module, is_package):
            if any(_within(site.target, above) for above in ABOVE_ANALYSIS):
                wrong.append(f"{path.relative_to(ROOT.parent)}:{site.line} ({site.level}) imports {site.target}")
    assert wrong == []


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of the graph (its nodes in order, the first repeated last), or []."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for succ in sorted(graph.get(node, ())):
            if state.get(succ) == 1:
                return stack[stack.index(succ):] + [succ]
            if succ not in state:
                found = walk(succ)
                if found:
                    return found
        state[node] = 2
        stack.pop()
        return []

    for node in sorted(graph):
        if node not in state:
            found = walk(node)
            if found:
                return found
    return []


def test_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}}) == []


def test_layered_packages_import_each_other_without_a_cycle() -> None:
    graph: dict[str, set[str]] = defaultdict(set)
    why: dict[tuple[str, str], str] = {}
    for module, path, is_package in package_modules():
        source_layer = _layer(module)
        if source_layer is None:
            continue
        for site in import_sites(path.read_text(encoding="utf-8"), module, is_package):
            target_layer = _layer(site.target)
            if site.level == "function" or target_layer in (None, source_layer):
                continue
            graph[source_layer].add(target_layer)
            why.setdefault((source_layer, target_layer), f"{module}:{site.line} imports {site.target}")
    cycle = _cycle(graph)
    assert cycle == [], [why[a, b] for a, b in zip(cycle, cycle[1:])]


@pytest.mark.parametrize("old", ["reprolint.catalog_ops", "reprolint.analysis.rng_catalog"])
def test_the_old_catalog_paths_are_gone(old: str) -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)


def _module_graph() -> dict[str, set[str]]:
    """module -> the reprolint modules it imports, at any level."""
    names = {module for module, _, _ in package_modules()}

    def resolve(target: str) -> str | None:
        while target and target not in names:
            target = target.rpartition(".")[0]
        return target or None

    graph: dict[str, set[str]] = defaultdict(set)
    for module, path, is_package in package_modules():
        for site in import_sites(path.read_text(encoding="utf-8"), module, is_package):
            found = resolve(site.target)
            if found is not None and found != module and found != "reprolint":
                graph[module].add(found)
    return graph


def test_no_rule_module_is_in_an_import_cycle() -> None:
    """The rules (reprolint.checks) import the model and the fix helpers; nothing they
    import, at any level, leads back to them (the registry loads the rules from above)."""
    graph = _module_graph()
    in_cycle = []
    for module in sorted(graph):
        if not _within(module, "reprolint.checks"):
            continue
        seen: set[str] = set()
        stack = list(graph[module])
        while stack:
            current = stack.pop()
            if current == module:
                in_cycle.append(module)
                break
            if current not in seen:
                seen.add(current)
                stack.extend(graph.get(current, ()))
    assert in_cycle == []
