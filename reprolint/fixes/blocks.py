"""Codemods that add whole statements: determinism lines at the entry point, a worker
seeding function, a call at the top of a loop.

Each is idempotent: it looks for its own result (the same statement text) before adding
it, so applying it twice changes nothing the second time.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import libcst as cst

from reprolint.fixes._nodes import Statement, parse_statements, walk
from reprolint.fixes.insert import free_names, import_block_end, insert_statements, with_blank_lines

__all__ = [
    "ensure_after_imports",
    "ensure_at_loop_top",
    "ensure_function",
    "statement_texts",
    "worker_seed_source",
]


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _normal(text: str) -> str:
    return "".join(text.split()).replace("'", '"')


def statement_texts(module: cst.Module) -> set[str]:
    """Every simple statement of the module (any depth), whitespace-free, `"` quotes."""
    return {
        _normal(_code(small))
        for node, _ in walk(module)
        if isinstance(node, cst.SimpleStatementLine)
        for small in node.body
    }


def ensure_after_imports(
    module: cst.Module,
    lines: Sequence[str],
    stop: Optional[Callable[[cst.CSTNode], bool]] = None,
) -> cst.Module:
    """``lines`` (statements) right after the imports, except those already anywhere in
    the module (compared without whitespace, quotes normalised)."""
    present = statement_texts(module)
    missing = [line for line in lines if _normal(line) not in present]
    if not missing:
        return module
    statements = parse_statements("\n".join(missing) + "\n", module)
    return insert_statements(module, import_block_end(module, stop, free_names(statements)), statements)


def ensure_function(
    module: cst.Module,
    name: str,
    source: str,
    stop: Optional[Callable[[cst.CSTNode], bool]] = None,
) -> cst.Module:
    """A top-level function ``name`` (``source``) after the imports, unless one exists."""
    if any(isinstance(s, cst.FunctionDef) and s.name.value == name for s in module.body):
        return module
    statements = parse_statements(source, module)
    index = import_block_end(module, stop, free_names(statements))
    statements[0] = with_blank_lines(statements[0], 2)
    body = list(module.body)
    if index < len(body):
        body[index] = with_blank_lines(body[index], 2)
    return module.with_changes(body=(*body[:index], *statements, *body[index:]))


def worker_seed_source(name: str, torch: str, attrs: Sequence[str], numpy: Optional[str] = None) -> str:
    """A ``worker_init_fn`` that reseeds the dataset's own generators in each worker.

    The worker's seed (``get_worker_info().seed``: the loader's base seed, drawn from
    torch's seeded RNG, plus the worker id) differs per worker and repeats per run.
    Whatever the generator's type: a NumPy ``Generator`` is rebuilt around a new bit
    generator of its kind, a torch ``Generator`` gets ``manual_seed``, a
    ``random.Random``/``RandomState`` gets ``seed``.
    """
    lines = [
        f"def {name}(worker_id):",
        '    """Reseed the dataset\'s own random generators in each DataLoader worker."""',
        f"    info = {torch}.utils.data.get_worker_info()",
        "    seed = info.seed % 2**32",
    ]
    if numpy is not None:
        lines.append(f"    {numpy}.random.seed(seed)")
    if attrs:
        names = ", ".join(f'"{a}"' for a in attrs) + ("," if len(attrs) == 1 else "")
        lines += [
            f"    for name in ({names}):",
            "        rng = getattr(info.dataset, name)",
            '        if hasattr(rng, "bit_generator"):',
            "            setattr(info.dataset, name, type(rng)(type(rng.bit_generator)(seed)))",
            '        elif hasattr(rng, "manual_seed"):',
            "            rng.manual_seed(seed)",
            "        else:",
            "            rng.seed(seed)",
        ]
    return "\n".join(lines) + "\n"


def ensure_at_loop_top(loop: cst.For, statement: str, module: cst.Module) -> cst.For:
    """``loop`` with ``statement`` as the first statement of its body (unless it is)."""
    body = loop.body
    if not isinstance(body, cst.IndentedBlock):
        return loop
    if body.body and _normal(_code(body.body[0])) == _normal(statement):
        return loop
    [new] = parse_statements(statement + "\n", module)
    first: list[Statement] = list(body.body)
    if first:
        # The first statement's comments stay above it, under the inserted line.
        new = with_blank_lines(new, 0)
    return loop.with_changes(body=body.with_changes(body=(new, *first)))
