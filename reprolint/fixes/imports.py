"""Imports: what a module already binds, and adding the ones a fix needs.

New imports go through libcst's ``AddImportsVisitor``, which puts them at the end of the
module's leading import block, in the file's style, and never adds one that is already
there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

import libcst as cst

__all__ = ["ImportItem", "add_imports", "module_binding", "top_level_bindings"]


@dataclass(frozen=True)
class ImportItem:
    """An import a fix needs: ``import module`` or ``from module import obj_name``."""

    module: str
    obj_name: Optional[str] = None
    alias: Optional[str] = None


def _dotted(node: cst.BaseExpression) -> str:
    return cst.Module([]).code_for_node(node)


def top_level_bindings(module: cst.Module) -> dict[str, str]:
    """Names bound by the module's top-level imports (also inside top-level try/if).

    ``import numpy as np`` -> ``{"np": "numpy"}``; ``import os.path`` -> ``{"os": "os"}``;
    ``from torch import nn`` -> ``{"nn": "torch.nn"}``. Other top-level bindings of a
    name (assignments, definitions) map it to ``""``.
    """
    bound: dict[str, str] = {}

    def visit(statements: Iterable[cst.CSTNode]) -> None:
        for statement in statements:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, cst.Import):
                        for alias in small.names:
                            dotted = _dotted(alias.name)
                            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                                bound[alias.asname.name.value] = dotted
                            else:
                                root = dotted.split(".")[0]
                                bound[root] = root
                    elif isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                        if small.relative:
                            base = "." * len(small.relative) + (_dotted(small.module) if small.module else "")
                        else:
                            base = _dotted(small.module) if small.module else ""
                        for alias in small.names:
                            name = _dotted(alias.name)
                            local = name
                            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                                local = alias.asname.name.value
                            bound[local] = f"{base}.{name}"
                    elif isinstance(small, cst.Assign):
                        for target in small.targets:
                            if isinstance(target.target, cst.Name):
                                bound[target.target.value] = ""
            elif isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                bound[statement.name.value] = ""
            elif isinstance(statement, cst.Try):
                visit(statement.body.body)
            elif isinstance(statement, cst.If):
                visit(statement.body.body)

    visit(module.body)
    return bound


def module_binding(module: cst.Module, dotted: str) -> Optional[str]:
    """The local name through which ``dotted`` (a module) is reachable, if any.

    ``numpy`` in a module with ``import numpy as np`` is ``np``; ``numpy.random`` there
    is ``np.random``; ``torch.backends.cudnn`` with ``import torch`` is
    ``torch.backends.cudnn``.
    """
    bindings = top_level_bindings(module)
    best: Optional[tuple[int, str]] = None
    for local, target in bindings.items():
        if not target:
            continue
        if dotted == target or dotted.startswith(target + "."):
            rest = dotted[len(target):]
            if best is None or len(target) > best[0]:
                best = (len(target), local + rest)
    return best[1] if best else None


def add_imports(module: cst.Module, items: Iterable[ImportItem]) -> cst.Module:
    """``module`` with the imports added (those already present are not added again)."""
    items = list(items)
    if not items:
        return module
    # AddImportsVisitor only reads and edits the leading import block (and puts a blank
    # line before the statement after it); running it on that head alone gives the same
    # result without rebuilding the whole tree twice.
    end = 0
    body = list(module.body)
    for i, statement in enumerate(body):
        is_import = isinstance(statement, cst.SimpleStatementLine) and all(
            isinstance(s, (cst.Import, cst.ImportFrom)) for s in statement.body
        )
        is_doc = i == 0 and isinstance(statement, cst.SimpleStatementLine) and isinstance(
            statement.body[0], cst.Expr
        )
        if not (is_import or is_doc):
            end = i + 1
            break
    else:
        end = len(body)
    head = module.with_changes(body=body[:end], footer=())
    # Imported here: reprolint may load libcst lazily (reprolint._lazy), and the codemod
    # package needs the real module, with its submodules bound as attributes.
    _bind_libcst_submodules()
    from libcst.codemod import CodemodContext
    from libcst.codemod.visitors import AddImportsVisitor
    from libcst.codemod.visitors import ImportItem as LibcstImportItem

    wanted = [LibcstImportItem(i.module, i.obj_name, i.alias) for i in items]
    fixed = AddImportsVisitor(CodemodContext(), wanted).transform_module(head)
    return module.with_changes(body=(*fixed.body, *body[end:]))



def _bind_libcst_submodules() -> None:
    """Make ``libcst.<sub>`` attributes of the loaded libcst module.

    A submodule first imported while a lazy stand-in was ``sys.modules["libcst"]`` is
    bound on the stand-in only; ``libcst.codemod`` reads ``cst._maybe_sentinel`` and the
    like from the real module.
    """
    import sys

    cst.Module  # noqa: B018 - loads the real libcst if a stand-in is in place
    real = sys.modules.get("libcst")
    if real is None:
        return
    for name, module in list(sys.modules.items()):
        if name.startswith("libcst.") and name.count(".") == 1 and module is not None:
            attr = name.split(".", 1)[1]
            if attr not in real.__dict__:
                setattr(real, attr, module)
