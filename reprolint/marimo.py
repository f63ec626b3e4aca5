"""marimo notebooks: a ``.py`` file whose cells are functions that marimo runs, not the
file.

A marimo notebook (``app = marimo.App()``, then functions decorated ``@app.cell``) runs
each cell once, after every cell that defines a name it takes as a parameter; the names a
cell returns are the notebook's globals (a class one cell defines is built in another).
Nothing in the file calls the functions, all named ``_`` (``app.run()`` does).

:func:`cell_reading` gives the module the analysis checks instead, its text kept line for line and
column for column: each cell's decorators become blank lines, its ``def`` line ``if
True:``, its final ``return (...)`` a ``pass``, so its body runs at the top level, in the
order of the file. That is an order marimo may run them in where every cell comes after
the cells that define what it takes, as marimo saves them; a file in another order, or
with a cell that returns early, is checked as it is written. Like a Python 2 file's
reading, a notebook read so gets no fixes (they would be planned on the reading).
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

__all__ = ["MARIMO", "cell_reading"]

# What ``FileAnalysis.old_syntax`` says of a marimo notebook checked through its reading.
MARIMO = "marimo"


def cell_reading(module: cst.Module, source: str) -> Optional[cst.Module]:
    """The reading of a marimo notebook, parsed (see the module's docstring; its text is
    the module's ``code``); None for any other module, and for a notebook the reading
    cannot express (a cell that returns early)."""
    if "marimo" not in source or ".cell" not in source:
        return None
    app = _app_name(module)
    if app is None:
        return None
    cells = [
        stmt for stmt in module.body
        if type(stmt) is cst.FunctionDef and any(_is_cell(d.decorator, app) for d in stmt.decorators)
        and type(stmt.body) is cst.IndentedBlock
    ]
    if not cells or not _in_dependency_order(cells):
        return None
    from libcst.metadata import MetadataWrapper, PositionProvider

    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    lines = source.splitlines(keepends=True)
    for fn in cells:
        body = fn.body.body  # type: ignore[attr-defined]
        last = body[-1] if body else None
        final = last if type(last) is cst.SimpleStatementLine and len(last.body) == 1 \
            and type(last.body[0]) is cst.Return else None
        if any(type(n) is cst.Return for stmt in body if stmt is not final for n in _outside_functions(stmt)):
            return None  # a cell that returns early: no top-level block says that
        first = positions[fn.decorators[0]].start.line if fn.decorators else positions[fn].start.line
        at = positions[fn].start.line
        header = module.code_for_node(fn.with_changes(
            decorators=[], leading_lines=[], body=cst.IndentedBlock(body=[cst.SimpleStatementLine([cst.Pass()])]),
        )).count("\n") - 1
        for line in range(first, at + header):
            lines[line - 1] = "\n"
        lines[at - 1] = "if True:\n"
        if final is not None:
            span = positions[final]
            indent = " " * span.start.column
            lines[span.start.line - 1] = f"{indent}pass\n"
            for line in range(span.start.line + 1, span.end.line + 1):
                lines[line - 1] = "\n"
    try:
        return cst.parse_module("".join(lines))
    except cst.ParserSyntaxError:
        return None


def _outside_functions(node: cst.CSTNode) -> list[cst.CSTNode]:
    """``node`` and what it holds, not looking into the functions and classes it defines."""
    out: list[cst.CSTNode] = []
    stack = [node]
    while stack:
        current = stack.pop()
        out.append(current)
        if type(current) in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        stack.extend(current.children)
    return out


def _in_dependency_order(cells: list[cst.FunctionDef]) -> bool:
    """Whether every cell comes after the cell that defines each name it takes (what
    marimo saves in the order of the notebook): the order of the file is then one that
    marimo may run."""
    defined: dict[str, int] = {}
    for k, fn in enumerate(cells):
        for name in _returned(fn):
            defined.setdefault(name, k)
    return all(
        defined.get(p.name.value, -1) < k
        for k, fn in enumerate(cells) for p in (*fn.params.posonly_params, *fn.params.params)
    )


def _app_name(module: cst.Module) -> Optional[str]:
    """The name bound at the top level to ``marimo.App(...)`` (``import marimo``)."""
    imported = False
    for stmt in module.body:
        if type(stmt) is not cst.SimpleStatementLine:
            continue
        for small in stmt.body:
            if type(small) is cst.Import and any(
                type(a.name) is cst.Name and a.name.value == "marimo" and a.asname is None for a in small.names
            ):
                imported = True
            elif imported and type(small) is cst.Assign and len(small.targets) == 1 \
                    and type(small.targets[0].target) is cst.Name and type(small.value) is cst.Call:
                func = small.value.func
                if type(func) is cst.Attribute and type(func.value) is cst.Name \
                        and func.value.value == "marimo" and func.attr.value == "App":
                    return small.targets[0].target.value
    return None


def _is_cell(decorator: cst.BaseExpression, app: str) -> bool:
    """``@app.cell`` or ``@app.cell(...)``."""
    target = decorator.func if type(decorator) is cst.Call else decorator  # type: ignore[attr-defined]
    return type(target) is cst.Attribute and type(target.value) is cst.Name \
        and target.value.value == app and target.attr.value == "cell"  # type: ignore[attr-defined]


def _returned(fn: cst.FunctionDef) -> list[str]:
    """The names a cell gives the others: its last statement's ``return (a, b)``."""
    body = fn.body.body if type(fn.body) is cst.IndentedBlock else ()
    if not body or type(body[-1]) is not cst.SimpleStatementLine:
        return []
    last = body[-1].body[-1]  # type: ignore[attr-defined]
    if type(last) is not cst.Return or last.value is None:
        return []
    value = last.value
    elements = value.elements if type(value) is cst.Tuple else [cst.Element(value)]  # type: ignore[attr-defined]
    out = [e.value.value for e in elements if type(e.value) is cst.Name]
    return out if len(out) == len(elements) else []
