"""reprolint's module import graph and its cycles (strongly connected components).

    python bench/import_graph.py [PACKAGE_DIR] [--edges]

Reads every module of the package with the stdlib ``ast`` (nothing is imported) and
sorts each ``import`` by where it runs: at the module's top (when the module is
imported), in a function body (when called), or under ``if TYPE_CHECKING:`` (never).
``from package import name`` depends on ``package.name`` when that is a module, else on
``package``; a submodule's implicit import of its parent package is not counted. Prints
the components of more than one module for the top-level imports, for top-level plus
function-level imports, and for all three; ``--edges`` lists the edges of the last.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

LEVELS = ("top", "function", "type-checking")


def modules(package: Path) -> dict[str, tuple[Path, bool]]:
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        found[".".join(parts)] = (path, is_package)
    return found


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def graph(package: Path) -> dict[str, dict[str, set[str]]]:
    """level -> module -> the package's modules it imports at that level."""
    mods = modules(package)
    root = package.name
    edges: dict[str, dict[str, set[str]]] = {level: defaultdict(set) for level in LEVELS}

    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    for module, (path, is_package) in mods.items():
        parent = module if is_package else module.rpartition(".")[0]

        def add(target: str, level: str) -> None:
            found = resolve(target)
            if found and found != module and (found == root or found.startswith(root + ".")):
                edges[level][module].add(found)

        def visit(node: ast.AST, level: str) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.Import):
                    for alias in child.names:
                        add(alias.name, level)
                elif isinstance(child, ast.ImportFrom):
                    base = child.module or ""
                    if child.level:
                        parts = parent.split(".")
                        base = ".".join(parts[: len(parts) - (child.level - 1)] + ([base] if base else []))
                    for alias in child.names:
                        dotted = f"{base}.{alias.name}"
                        add(dotted if dotted in mods else base, level)
                elif isinstance(child, ast.If) and _type_checking(child.test):
                    for statement in child.body:
                        visit(ast.Module(body=[statement], type_ignores=[]), "type-checking")
                    for statement in child.orelse:
                        visit(ast.Module(body=[statement], type_ignores=[]), level)
                elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                    visit(child, "function" if level == "top" else level)
                else:
                    visit(child, level)

        visit(ast.parse(path.read_text(encoding="utf-8")), "top")
    return edges


def components(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    nodes = sorted(set(edges) | {t for ts in edges.values() for t in ts})
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(edges.get(succ, ())))))
                    advanced = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found, key=lambda c: (-len(c), c))


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    package = Path(args[0]) if args else Path(__file__).resolve().parent.parent / "reprolint"
    edges = graph(package)
    combined: dict[str, set[str]] = defaultdict(set)
    last: list[list[str]] = []
    for upto, title in ((1, "top-level imports"), (2, "top-level + function-level"), (3, "all, TYPE_CHECKING included")):
        for level in LEVELS[upto - 1:upto]:
            for module, targets in edges[level].items():
                combined[module] |= targets
        last = components(combined)
        print(f"{title}: {len(last)} cycle(s), sizes {[len(c) for c in last]}")
        for component in last:
            print(f"  {len(component)}: {' '.join(component)}")
    if "--edges" in argv:
        for component in last:
            members = set(component)
            print(f"edges of the {len(component)}-module component:")
            for module in component:
                for level in LEVELS:
                    for target in sorted(edges[level].get(module, ()) & members):
                        print(f"  {level:13} {module} -> {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
