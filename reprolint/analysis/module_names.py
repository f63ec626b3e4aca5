"""The names a module binds at its top level, as ``from module import name`` finds them.

A ``from model import Model`` of a project module that binds no ``Model`` raises
ImportError where it runs, and the program ends there (the execution walker stops it:
``_Walker``). Only a module whose names are all written out can be read so: one with a
star import, a module-level ``__getattr__``, or code that binds names by other means
(``globals()``, ``vars()``, ``exec``, ``setattr``, ``sys.modules``) has names no reading
of its source lists, and gets None.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from reprolint.analysis.cst_helpers import children, descendants, target_names

__all__ = ["module_bound_names"]

# Calls and names through which a module may bind names its statements do not show.
_DYNAMIC = frozenset({"globals", "vars", "exec", "setattr", "__import__"})


def module_bound_names(module: cst.Module) -> Optional[frozenset[str]]:
    """Every name the module's top-level code may bind, on any branch (assignments, loop,
    ``with`` and ``except`` targets, imports, definitions, and the names a function of it
    declares ``global``); None where it may bind others (see the module docstring)."""
    bound: set[str] = set()
    for node in descendants(module):
        kind = type(node)
        if kind is cst.ImportStar or kind is cst.Match:
            return None
        if kind is cst.Name and node.value in _DYNAMIC:  # type: ignore[attr-defined]
            return None
        if kind is cst.Attribute and node.attr.value == "modules" and type(node.value) is cst.Name \
                and node.value.value == "sys":  # type: ignore[attr-defined]
            return None
        if kind is cst.Global:
            bound.update(n.name.value for n in node.names)  # type: ignore[attr-defined]
    todo: list[cst.CSTNode] = list(module.body)
    while todo:
        node = todo.pop()
        kind = type(node)
        if kind is cst.FunctionDef or kind is cst.ClassDef:
            name = node.name.value  # type: ignore[attr-defined]
            if name == "__getattr__":
                return None
            bound.add(name)
            continue  # their bodies bind their own names
        if kind is cst.Lambda:
            continue
        if kind is cst.Assign:
            for target in node.targets:  # type: ignore[attr-defined]
                bound.update(n.value for n in target_names(target.target))
        elif kind in (cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor):
            bound.update(n.value for n in target_names(node.target))  # type: ignore[attr-defined]
        elif kind is cst.NamedExpr:
            bound.update(n.value for n in target_names(node.target))  # type: ignore[attr-defined]
        elif kind is cst.AsName:
            bound.update(n.value for n in target_names(node.name))  # type: ignore[attr-defined,arg-type]
        elif kind is cst.Import:
            for alias in node.names:  # type: ignore[attr-defined]
                if alias.asname is None:
                    bound.add(_dotted(alias.name).split(".")[0])
        elif kind is cst.ImportFrom and not isinstance(node.names, cst.ImportStar):  # type: ignore[attr-defined]
            for alias in node.names:  # type: ignore[attr-defined]
                if alias.asname is None:
                    bound.add(_dotted(alias.name))
        todo.extend(children(node))
    return frozenset(bound)


def _dotted(node: cst.BaseExpression) -> str:
    if type(node) is cst.Attribute:
        return f"{_dotted(node.value)}.{node.attr.value}"  # type: ignore[attr-defined]
    return node.value if type(node) is cst.Name else ""  # type: ignore[attr-defined]
