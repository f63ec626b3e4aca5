"""Positions of a few chosen nodes, without paying for positions of every node.

libcst's ``PositionProvider`` records a range for every node of the module; on real
code that costs about twice the parse itself. reprolint needs positions only for the
handful of nodes it reports (calls that draw or seed), so this runs one code-generation
pass that tracks the line and column and records ranges only for those nodes.
Ranges follow ``PositionProvider``'s syntactic rules (parentheses excluded).
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Optional

import libcst as cst
from libcst._nodes.internal import CodegenState

from reprolint.model import Span

__all__ = ["node_spans"]

_NEWLINE = re.compile(r"\r\n?|\n")


class _NullContext:
    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


_NULL = _NullContext()


@dataclass
class _SelectiveState(CodegenState):
    targets: frozenset[int] = frozenset()
    found: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)
    line: int = 1
    column: int = 0
    stack: list[tuple[int, int]] = field(default_factory=list)

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.add_token(token)

    def add_token(self, value: str) -> None:
        # Tokens are not kept: only the running position matters.
        if "\n" in value or "\r" in value:
            segments = _NEWLINE.split(value)
            self.line += len(segments) - 1
            self.column = len(segments[-1])
        else:
            self.column += len(value)

    def before_codegen(self, node: cst.CSTNode) -> None:
        if id(node) in self.targets:
            self.stack.append((self.line, self.column))

    def after_codegen(self, node: cst.CSTNode) -> None:
        key = id(node)
        if key in self.targets:
            start = self.stack.pop()
            self.found.setdefault(key, (*start, self.line, self.column))

    def record_syntactic_position(  # type: ignore[override]
        self,
        node: cst.CSTNode,
        *,
        start_node: Optional[cst.CSTNode] = None,
        end_node: Optional[cst.CSTNode] = None,
    ):
        if id(node) not in self.targets:
            return _NULL
        return self._record(node)

    @contextmanager
    def _record(self, node: cst.CSTNode) -> Iterator[None]:
        start = (self.line, self.column)
        yield
        self.found[id(node)] = (*start, self.line, self.column)


def node_spans(module: cst.Module, nodes: Iterable[cst.CSTNode]) -> dict[int, Span]:
    """Span (1-based line and column, end exclusive) of each node, keyed by ``id(node)``.

    Nodes with a ``start_node``/``end_node`` hoisting rule in libcst (a few statements)
    get their own codegen range; calls and names, which is what reprolint reports,
    are exact.
    """
    targets = frozenset(id(n) for n in nodes)
    if not targets:
        return {}
    state = _SelectiveState(
        default_indent=module.default_indent,
        default_newline=module.default_newline,
        targets=targets,
    )
    module._codegen(state)
    return {
        key: Span(line, col + 1, end_line, end_col + 1)
        for key, (line, col, end_line, end_col) in state.found.items()
    }
