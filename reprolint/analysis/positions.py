"""Positions of a few chosen nodes, without paying for positions of every node.

libcst's ``PositionProvider`` records a range for every node of the module; on real
code that costs about twice the parse itself. reprolint needs positions only for the
handful of nodes it reports (calls that draw or seed), so this runs one code-generation
pass that tracks the line and column and records ranges only for those nodes.
Ranges follow ``PositionProvider``'s syntactic rules (parentheses excluded).
"""

from __future__ import annotations

import ast
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


def node_spans(
    module: cst.Module, nodes: Iterable[cst.CSTNode], source: Optional[str] = None
) -> dict[int, Span]:
    """Span (1-based line and column, end exclusive) of each node, keyed by ``id(node)``.

    Nodes with a ``start_node``/``end_node`` hoisting rule in libcst (a few statements)
    get their own codegen range; calls and names, which is what reprolint reports,
    are exact.

    With the module's ``source``, calls are placed from Python's own parser (C, cheap):
    a call whose text matches exactly one call of the source takes that call's range.
    The rest (other nodes, texts that occur more than once) fall back to the
    code-generation pass, which stops after the last top-level statement it needs.
    """
    nodes = list(nodes)
    if not nodes:
        return {}
    spans: dict[int, Span] = {}
    if source is not None:
        spans = _calls_from_ast(module, nodes, source)
    rest = frozenset(id(n) for n in nodes if id(n) not in spans)
    if rest:
        spans.update(_codegen_spans(module, rest))
    return spans


def _codegen_spans(module: cst.Module, targets: frozenset[int]) -> dict[int, Span]:
    state = _SelectiveState(
        default_indent=module.default_indent,
        default_newline=module.default_newline,
        targets=targets,
    )
    wanted = len(targets)
    for part in (module.header, module.body, module.footer):
        for node in part:
            node._codegen(state)
            if len(state.found) >= wanted:
                break
        else:
            continue
        break
    return {
        key: Span(line, col + 1, end_line, end_col + 1)
        for key, (line, col, end_line, end_col) in state.found.items()
    }


def _calls_from_ast(module: cst.Module, nodes: list[cst.CSTNode], source: str) -> dict[int, Span]:
    calls = [n for n in nodes if isinstance(n, cst.Call)]
    if not calls:
        return {}
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return {}
    lines = _NEWLINE_KEEP.split(source)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    by_text: dict[str, list[tuple[int, int, int, int]]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or node.end_lineno is None:
            continue
        start = (node.lineno, _chars(lines, node.lineno, node.col_offset))
        end = (node.end_lineno, _chars(lines, node.end_lineno, node.end_col_offset or 0))
        text = source[starts[start[0] - 1] + start[1] : starts[end[0] - 1] + end[1]]
        by_text.setdefault(_key(text), []).append((*start, *end))
    spans: dict[int, Span] = {}
    for call in calls:
        bare = call.with_changes(lpar=(), rpar=()) if call.lpar or call.rpar else call
        found = by_text.get(_key(module.code_for_node(bare)))
        if found is not None and len(found) == 1:
            line, col, end_line, end_col = found[0]
            spans[id(call)] = Span(line, col + 1, end_line, end_col + 1)
    return spans


def _key(text: str) -> str:
    """``text`` without the leading blanks of its continuation lines.

    A nested node's code, generated alone, lacks its block's indentation on those lines.
    """
    if "\n" not in text and "\r" not in text:
        return text
    return _CONTINUATION_INDENT.sub("", text)


_CONTINUATION_INDENT = re.compile(r"(?<=[\r\n])[ \t\f]+")
_NEWLINE_KEEP = re.compile(r"(?<=\n)|(?<=\r)(?!\n)")


def _chars(lines: list[str], lineno: int, byte_col: int) -> int:
    """Character column of ``ast``'s UTF-8 byte column on line ``lineno``."""
    if lineno - 1 >= len(lines):
        return byte_col
    line = lines[lineno - 1]
    if line.isascii():
        return byte_col
    return len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="replace"))
