"""Positions of a few chosen nodes, without paying for positions of every node.

libcst's ``PositionProvider`` records a range for every node of the module; on real
code that costs about twice the parse itself. reprolint needs positions only for the
nodes it reports (mostly calls), and finds them in the source it parsed when it can:

1. **By order, with CPython's ast.** Calls, attributes and subscripts have one ast
   node each, over the same range (parentheses around the node excluded in both).
   Listed in source order (libcst's nodes of one type in pre-order, ast's sorted by
   start, longest first), the k-th of one list is the k-th of the other; the lists must
   agree in length and shape (arguments, attribute names), else the module skips this
   step. ast columns (UTF-8 bytes) become characters. Left out of both lists: f-strings
   (Python 3.11's ast misplaces the nodes inside them) and imports (libcst spells
   dotted import names as attributes, ast as text). Source that this Python's ast
   cannot parse (syntax newer than 3.11) skips this step.
2. **By text.** A node's code generated alone is the source text verbatim up to its
   first line break; later lines lack only the indentation of the enclosing block. If
   that first line occurs once in the source, the node starts there, and its end
   follows from its line count and last line. A call, attribute or subscript that step
   1 did not list is inside an f-string or an import: one occurrence inside those is
   enough. Not for ``If`` and the nodes whose code depends on their parent (``elif``,
   a default comma).
3. **One code-generation pass** for the rest (statements whose text repeats, nodes in
   modules that skipped step 1): it tracks the line and column, records ranges only
   for those nodes, and stops once it has them all.

Ranges follow ``PositionProvider``'s syntactic rules (parentheses excluded). The pass
is the reference; ``bench/check_positions.py`` compares steps 1 and 2 with it.
"""

from __future__ import annotations

import ast
import bisect
import functools
import re
import warnings
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, NamedTuple, Optional

import libcst as cst
from libcst._nodes.internal import CodegenState

from reprolint._gc import cycle_collection_paused
from reprolint.analysis.cst_helpers import visit_order, child_fields, descendants, is_node
from reprolint.model import Span

__all__ = ["SourceSpans", "node_spans"]

_NEWLINE = re.compile(r"\r\n?|\n")
_INDENT = re.compile(r"[ \t\f]*")


class _CstTypes(NamedTuple):
    """libcst's node types that the steps treat apart (made on first use: reading them
    off ``cst`` at import would import the real libcst, see reprolint/_lazy.py)."""

    ast_types: dict[type, type]  # ast has one node for each, at the same range
    # Not looked into by step 1: f-strings (a concatenation with one is one f-string for
    # ast) and imports, like _OPAQUE_AST on ast's side.
    opaque: tuple[type, ...]
    leaves: frozenset[type]  # no code inside (the commonest: skipped quickly)


@functools.cache
def _cst_types() -> _CstTypes:
    return _CstTypes(
        ast_types={cst.Call: ast.Call, cst.Attribute: ast.Attribute, cst.Subscript: ast.Subscript},
        opaque=(cst.FormattedString, cst.Import, cst.ImportFrom),
        leaves=frozenset(
            {cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.Ellipsis}
        ),
    )


_OPAQUE_AST = (ast.JoinedStr, ast.Import, ast.ImportFrom)

# An ast node: start line and column, minus end line and column (so that sorting puts
# the longest first), and what the libcst node must agree on.
_AstEntry = tuple[int, int, int, int, object]
_AstRange = tuple[int, int, int, int]  # start line and column, end line and column


def node_spans(
    module: cst.Module, nodes: Iterable[cst.CSTNode], source: Optional[str] = None
) -> dict[int, Span]:
    """Span (1-based line and column, end exclusive) of each node, keyed by ``id(node)``.

    ``source`` is the text ``module`` was parsed from; without it every span comes from
    the code-generation pass. Nodes with a ``start_node``/``end_node`` hoisting rule in
    libcst (a few statements) get their own codegen range; calls and names, which is
    what reprolint reports, are exact.
    """
    nodes = list(nodes)
    spans: dict[int, Span] = {}
    # The source must be what libcst's code reproduces: decode_source drops a BOM, and
    # libcst drops form feeds (its positions do not count them).
    if source is not None and not source.startswith("\ufeff") and "\x0c" not in source:
        # ast's tree is many short-lived objects without cycles; the collections their
        # allocation would start traverse every libcst tree alive (reprolint._gc).
        with cycle_collection_paused():
            spans = SourceSpans(module, source).spans(nodes)
    left = [n for n in nodes if id(n) not in spans]
    if left:
        spans.update(codegen_spans(module, left))
    return spans


class SourceSpans:
    """Steps 1 and 2 for one module."""

    def __init__(self, module: cst.Module, source: str) -> None:
        self.module = module
        self.source = source
        self.ascii = source.isascii()
        self.line_starts = [0, *(m.end() for m in _NEWLINE.finditer(source))]
        # Source index range of the f-string or import each node of step 1's kinds that
        # step 1 did not list is in.
        self.enclosing: dict[int, tuple[int, int]] = {}

    def spans(self, nodes: list[cst.CSTNode]) -> dict[int, Span]:
        spans: dict[int, Span] = {}
        ast_types = _cst_types().ast_types
        wanted = {id(n): n for n in nodes if type(n) in ast_types}
        if wanted:
            spans = self._by_order(wanted)
        for node in nodes:
            if id(node) not in spans:
                span = self._by_text(node)
                if span is not None:
                    spans[id(node)] = span
        return spans

    # -------------------------------------------------------------- 1: by order

    def _by_order(self, wanted: dict[int, cst.CSTNode]) -> dict[int, Span]:
        ast_listed = _ast_nodes(self.source)
        if ast_listed is None:
            return {}
        ast_by_type, ast_opaque = ast_listed
        cst_by_type, cst_opaque = _cst_nodes(self.module, wanted)
        spans: dict[int, Span] = {}
        wanted_kinds = {type(n) for n in wanted.values()}
        for kind, cst_nodes in cst_by_type.items():
            ast_nodes = ast_by_type[_cst_types().ast_types[kind]]
            if len(cst_nodes) != len(ast_nodes):
                return {}
            if kind not in wanted_kinds:
                continue
            if any(_shape(n) != entry[4] for n, entry in zip(cst_nodes, ast_nodes)):
                return {}
            for node, (line, column, end_line, end_column, _) in zip(cst_nodes, ast_nodes):
                if id(node) in wanted:
                    spans[id(node)] = Span(
                        line, self._column(line, column) + 1,
                        -end_line, self._column(-end_line, -end_column) + 1,
                    )
        if len(cst_opaque) == len(ast_opaque):
            for inside, (line, column, end_line, end_column) in zip(cst_opaque, ast_opaque):
                where = (self._index(line, column), self._index(end_line, end_column))
                self.enclosing.update((key, where) for key in inside)
        return spans

    def _column(self, line: int, column: int) -> int:
        """The character column of ast's column (UTF-8 bytes) on a line."""
        if self.ascii:
            return column
        start = self.line_starts[line - 1]
        if self.source[start : start + column].isascii():
            return column
        text = self.source[start : self.line_starts[line] if line < len(self.line_starts) else None]
        return len(text.encode("utf-8", "surrogatepass")[:column].decode("utf-8", "surrogatepass"))

    def _index(self, line: int, column: int) -> int:
        return self.line_starts[line - 1] + self._column(line, column)

    # -------------------------------------------------------------- 2: by text

    def _by_text(self, node: cst.CSTNode) -> Optional[Span]:
        if not _context_free(type(node)):
            return None
        if type(node) in _cst_types().ast_types:
            # Not listed by step 1: it is in an f-string or import; look only there.
            if id(node) not in self.enclosing:
                return None
            start, end = self.enclosing[id(node)]
        else:
            start, end = 0, len(self.source)
        text = _code(self.module, node)
        line_break = _NEWLINE.search(text)
        head = text if line_break is None else text[: line_break.end()]
        found = self.source.find(head, start, end) if head else -1
        if found < 0 or self.source.find(head, found + 1, end) >= 0:
            return None
        return self._span_at(found, text)

    def _span_at(self, index: int, text: str) -> Optional[Span]:
        """The span of ``text`` found at ``index``, or None if it does not fit there."""
        line = bisect.bisect_right(self.line_starts, index)
        column = index - self.line_starts[line - 1]
        lines = _NEWLINE.split(text)
        if len(lines) == 1:
            return Span(line, column + 1, line, column + len(text) + 1)
        end_line = line + len(lines) - 1
        last = lines[-1]
        if not last:  # ends with its line break
            return Span(line, column + 1, end_line, 1)
        if end_line > len(self.line_starts):
            return None
        # Generated alone, the last line lacks the indentation of the enclosing block.
        start = self.line_starts[end_line - 1]
        added = _indent_width(self.source, start) - _indent_width(last, 0)
        if added < 0 or not self.source.startswith(last, start + added):
            return None
        return Span(line, column + 1, end_line, added + len(last) + 1)


def _ast_nodes(source: str) -> Optional[tuple[dict[type, list[_AstEntry]], list[_AstRange]]]:
    """ast's calls, attributes and subscripts by type, in source order, and the ranges
    of its f-strings and imports, in order; None if ast cannot parse the source."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes and the like: not ours to report
            tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # syntax newer than this Python, null bytes, too deep
    calls: list[_AstEntry] = []
    attributes: list[_AstEntry] = []
    subscripts: list[_AstEntry] = []
    opaque: list[_AstRange] = []
    stack: list[ast.AST] = [tree]
    push, pop, AST = stack.append, stack.pop, ast.AST
    while stack:
        node: ast.AST = pop()
        kind = type(node)
        if kind is ast.Call:
            arguments = len(node.args) + len(node.keywords)  # type: ignore[attr-defined]
            calls.append(_entry(node, arguments))
        elif kind is ast.Attribute:
            attributes.append(_entry(node, node.attr))  # type: ignore[attr-defined]
        elif kind is ast.Subscript:
            subscripts.append(_entry(node, None))
        elif kind in _OPAQUE_AST:
            opaque.append(_range(node))
            continue
        for name in kind._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, AST):
                        push(item)
            elif isinstance(value, AST):
                push(value)
    for found in (calls, attributes, subscripts, opaque):
        found.sort()
    return {ast.Call: calls, ast.Attribute: attributes, ast.Subscript: subscripts}, opaque


def _entry(node: Any, shape: object) -> _AstEntry:
    return node.lineno, node.col_offset, -node.end_lineno, -node.end_col_offset, shape


def _range(node: Any) -> _AstRange:
    return node.lineno, node.col_offset, node.end_lineno, node.end_col_offset


def _cst_nodes(
    module: cst.Module, wanted: dict[int, cst.CSTNode]
) -> tuple[dict[type, list[cst.CSTNode]], list[list[int]]]:
    """libcst's calls, attributes and subscripts by type, in pre-order, source order;
    and for each f-string and import, in order, the wanted nodes inside it."""
    types = _cst_types()
    found: dict[type, list[cst.CSTNode]] = {kind: [] for kind in types.ast_types}
    opaque: list[list[int]] = []
    stack: list[cst.CSTNode] = [module]
    push, pop = stack.append, stack.pop
    while stack:
        node = pop()
        kind = type(node)
        held = found.get(kind)
        if held is not None:
            held.append(node)
        elif kind in types.leaves:
            continue
        elif kind in types.opaque or (kind is cst.ConcatenatedString and _has_fstring(node)):
            opaque.append([id(n) for n in descendants(node) if id(n) in wanted])
            continue
        for name in _reversed_source_order(kind):  # pushed last to first: popped in order
            value = getattr(node, name)
            if type(value) in (list, tuple):
                for item in reversed(value):
                    if is_node(item):
                        push(item)
            elif is_node(value):
                push(value)
    return found, opaque


def _has_fstring(node: cst.ConcatenatedString) -> bool:
    """Whether a string concatenation is one f-string for ast."""
    right: cst.CSTNode = node
    while isinstance(right, cst.ConcatenatedString):
        if isinstance(right.left, cst.FormattedString):
            return True
        right = right.right
    return isinstance(right, cst.FormattedString)


_REVERSED_ORDER: dict[type, tuple[str, ...]] = {}


def _reversed_source_order(kind: type) -> tuple[str, ...]:
    """The fields of a node type that hold code, the last in the source first."""
    order = _REVERSED_ORDER.get(kind)
    if order is None:
        code = set(child_fields(kind))
        visited = visit_order(kind)  # libcst visits children in source order
        if visited is None:
            raise RuntimeError(f"libcst's visiting order of {kind.__name__} is unknown")
        order = _REVERSED_ORDER[kind] = tuple(name for name in reversed(visited) if name in code)
    return order


def _shape(node: cst.CSTNode) -> object:
    """What a libcst node and its ast node agree on: a call's number of arguments, an
    attribute's name."""
    if isinstance(node, cst.Call):
        return len(node.args)
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return None


@dataclass
class _TextState(CodegenState):
    """Generates one node's code and notes which tokens its syntactic range holds."""

    target: int = 0
    first: int = 0
    last: int = 0  # no range recorded: no code (the node is left to the pass)

    def record_syntactic_position(  # type: ignore[override]
        self,
        node: cst.CSTNode,
        *,
        start_node: Optional[cst.CSTNode] = None,
        end_node: Optional[cst.CSTNode] = None,
    ):
        if id(node) != self.target:
            return _NULL
        return self._record()

    @contextmanager
    def _record(self) -> Iterator[None]:
        first = len(self.tokens)
        yield
        self.first, self.last = first, len(self.tokens)


def _code(module: cst.Module, node: cst.CSTNode) -> str:
    """The code of a node's syntactic range (its own parentheses excluded)."""
    state = _TextState(
        default_indent=module.default_indent,
        default_newline=module.default_newline,
        target=id(node),
    )
    node._codegen(state)
    return "".join(state.tokens[state.first : state.last])


@functools.cache
def _context_free(kind: type) -> bool:
    """Whether a node's code is its own: not so for ``If`` (``elif`` when its parent says
    so) and the nodes that take a default comma or semicolon from their parent."""
    code = kind._codegen_impl.__code__  # type: ignore[attr-defined]
    return code.co_argcount == 2 and code.co_kwonlyargcount == 0


def _indent_width(text: str, start: int) -> int:
    match = _INDENT.match(text, start)
    return match.end() - start if match else 0


# ---------------------------------------------------------------- 3: code generation


_NULL = nullcontext()  # what record_syntactic_position gives every other node


class _AllFound(Exception):
    """Ends the pass early: every chosen node has its range."""


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
            if len(self.found) == len(self.targets):
                raise _AllFound

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


def codegen_spans(module: cst.Module, nodes: Iterable[cst.CSTNode]) -> dict[int, Span]:
    """:func:`node_spans` by the code-generation pass alone (the reference)."""
    targets = frozenset(id(n) for n in nodes)
    if not targets:
        return {}
    state = _SelectiveState(
        default_indent=module.default_indent,
        default_newline=module.default_newline,
        targets=targets,
    )
    try:
        module._codegen(state)
    except _AllFound:
        pass
    return {
        key: Span(line, col + 1, end_line, end_col + 1)
        for key, (line, col, end_line, end_col) in state.found.items()
    }
