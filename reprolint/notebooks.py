"""Jupyter notebooks: check one as a program, map findings back to cells, write cells back.

A notebook is checked as one program, an entry point by definition: its code cells are
joined in order, one program line per cell line, so a finding maps back to a
``(cell, line)`` pair. IPython syntax that is not Python is neutralised without moving
any line:

* line magics (``%matplotlib inline``), shell escapes (``!pip install x``) and help
  (``obj?``, and the wildcard search ``torch.*rand*?``) become ``pass`` at the same indentation, so a block stays a block;
  ``files = !ls`` and ``t = %timeit -o f()`` become ``files = None``;
* ``%time STATEMENT`` and ``%timeit STATEMENT`` keep the statement (it runs, and may
  draw); its columns are shifted back when a finding is mapped;
* a ``%%time``/``%%timeit``/``%%capture``/``%%prun`` cell keeps its Python body; any
  other cell magic (``%%bash``, ``%%writefile``, ``%%html``...) is not Python and
  becomes blank lines;
* a cell whose first non-blank line is indented loses that indentation on every line
  that starts with it, as IPython runs it (its ``leading_indent`` input transform); the
  columns are shifted back when a finding is mapped.

Cells are numbered among **code cells only**, from 1 (as ruff does): ``nb.ipynb:cell 3:2:5``
is line 2, column 5 of the third code cell. Markdown and raw cells are not counted.

``notebook_sources`` and ``write_back`` are the pieces ``fix`` needs: the code cells'
sources, and the notebook text with only the given cells' ``source`` replaced (every
other byte of the file -- outputs, metadata, indentation, key order, the trailing
newline -- is kept as it was).
"""

from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Mapping, Optional

from reprolint.model import Diagnostic, Edit, Fix, Related, Span

if TYPE_CHECKING:
    from reprolint.api import FileAnalysis

__all__ = [
    "CellMap",
    "Notebook",
    "NotebookError",
    "analyse_notebook",
    "file_line",
    "map_to_cells",
    "to_cells",
    "json_lines",
    "notebook_program",
    "notebook_sources",
    "read_notebook",
    "write_back",
]

# Cell magics whose body is Python that runs (once or more).
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun"})
# Line magics followed by a Python statement that runs.
_STATEMENT_MAGIC = re.compile(r"^(?P<indent>[ \t]*)(?P<magic>%(?:time|timeit|prun)[ \t]+)(?=[^\s-])")
_ASSIGN_MAGIC = re.compile(
    r"^(?P<target>[ \t]*[A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*[ \t]*=)[ \t]*[%!]"
)
_HELP = re.compile(r"^[ \t]*(?:\?\??[\w.*]*\w[\w.*]*|[\w.*]*\w[\w.*]*\?\??)[ \t]*$")
_LEADING_INDENT = re.compile(r"^[ \t]+")


class NotebookError(ValueError):
    """A notebook that cannot be read; ``line``/``column`` point into the JSON text."""

    def __init__(self, reason: str, line: int = 1, column: int = 1) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.column = column


@dataclass
class Notebook:
    """A parsed notebook: its JSON document, its text, and where code cells are."""

    text: str
    document: dict[str, Any]
    code_cells: list[int]  # code cell number - 1 -> index among all cells
    language: str = "python"

    @property
    def cells(self) -> list[dict[str, Any]]:
        return self.document["cells"]


@dataclass(frozen=True)
class CellMap:
    """Program line (1-based) -> (code cell number, line in cell, column shift)."""

    lines: tuple[tuple[int, int, int], ...] = ()

    def locate(self, line: int) -> tuple[int, int, int]:
        if not self.lines:
            return (1, max(line, 1), 0)
        line = min(max(line, 1), len(self.lines))
        return self.lines[line - 1]


def _source_text(cell: Mapping[str, Any]) -> str:
    source = cell.get("source", "")
    if isinstance(source, list):
        return "".join(s for s in source if isinstance(s, str))
    return source if isinstance(source, str) else ""


_SURROGATE = re.compile("[\ud800-\udfff]")


def _refuse_surrogates(source: str, number: int) -> None:
    """A code cell whose JSON holds a lone surrogate (``"\\ud800"``) is not text that
    Python source (or UTF-8) can hold: say so instead of failing later."""
    found = _SURROGATE.search(source)
    if found is not None:
        line = source.count("\n", 0, found.start()) + 1
        raise NotebookError(
            f"code cell {number}, line {line}: a lone surrogate "
            f"(\\u{ord(found.group()):04x}) in the notebook's JSON is not valid text"
        )


def read_notebook(text: str) -> Notebook:
    """Parse notebook JSON (nbformat 4); raise NotebookError with a user-facing reason."""
    body = text[1:] if text.startswith("\ufeff") else text
    try:
        document = json.loads(body)
    except json.JSONDecodeError as exc:
        raise NotebookError(f"invalid notebook JSON: {exc.msg}", exc.lineno, exc.colno) from exc
    except RecursionError as exc:
        raise NotebookError("invalid notebook JSON: nested too deeply") from exc
    if not isinstance(document, dict):
        raise NotebookError("not a Jupyter notebook: the JSON is not an object")
    if "worksheets" in document and "cells" not in document:
        raise NotebookError(
            "nbformat 3 notebooks are not supported; upgrade it with "
            "`jupyter nbconvert --to notebook --inplace`"
        )
    cells = document.get("cells")
    if not isinstance(cells, list):
        raise NotebookError("not a Jupyter notebook: no `cells` list")
    code_cells = []
    for index, cell in enumerate(cells):
        if not isinstance(cell, dict):
            raise NotebookError(f"not a Jupyter notebook: cell {index + 1} is not an object")
        if cell.get("cell_type") == "code":
            code_cells.append(index)
            _refuse_surrogates(_source_text(cell), len(code_cells))
    metadata = document.get("metadata") if isinstance(document.get("metadata"), dict) else {}
    return Notebook(text, document, code_cells, notebook_language(metadata))


# A name that says Python: `python3`, `ipython3`, `Python 3 (ipykernel)`, `pyspark`,
# `py39`, a conda environment's `conda-env-ml-py`.
_PYTHON_NAME = re.compile(r"python|^pyspark|(^|[-_ ])py(\d[\d.]*)?($|[-_ ])")


def _says_python(name: str) -> bool:
    return bool(_PYTHON_NAME.search(name.strip().lower()))


def notebook_language(metadata: Mapping[str, Any]) -> str:
    """``"python"``, or the language a notebook's metadata names instead.

    The kernelspec's name and language and ``language_info.name`` are read together: a
    notebook is Python when any of them says Python (``ipython3``, ``python3`` with a
    stray language field) or none says anything, so a Python notebook is never skipped
    for one odd field. Otherwise the first name given (an R or Julia notebook).
    """
    names = []
    for key, inner in (("language_info", "name"), ("kernelspec", "language"), ("kernelspec", "name")):
        value = metadata.get(key)
        if isinstance(value, dict) and isinstance(value.get(inner), str) and value[inner].strip():
            names.append(value[inner].strip())
    if not names or any(_says_python(name) for name in names):
        return "python"
    return names[0]


def notebook_sources(notebook: Notebook) -> dict[int, str]:
    """The source of every code cell, keyed by code cell number (1-based)."""
    return {
        number: _source_text(notebook.cells[index])
        for number, index in enumerate(notebook.code_cells, start=1)
    }


def _line_state(line: str, quote: Optional[str], depth: int) -> tuple[Optional[str], int]:
    """The triple-quote string still open after ``line`` (None when none is), and how
    many brackets are still open (a line inside them continues a Python statement)."""
    i, n = 0, len(line)
    while i < n:
        if quote is not None:
            if line[i] == "\\":
                i += 2
                continue
            if line.startswith(quote, i):
                i += len(quote)
                quote = None
                continue
            i += 1
            continue
        ch = line[i]
        if ch == "#":
            break
        if ch in "([{":
            depth += 1
        elif ch in ")]}" and depth:
            depth -= 1
        elif ch in "\"'":
            triple = line[i : i + 3]
            if triple in ('"""', "'''"):
                quote = triple
                i += 3
                continue
            # A one-line string: skip to its closing quote.
            j = i + 1
            while j < n and line[j] != ch:
                j += 2 if line[j] == "\\" else 1
            i = j + 1
            continue
        i += 1
    return quote, depth


def _is_magic(stripped: str) -> bool:
    return stripped.startswith(("%", "!")) or bool(_HELP.match(stripped))


def _cell_program(source: str) -> list[tuple[str, int]]:
    """Python lines for one cell, one per cell line, with each line's column shift."""
    lines = source.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the cell's trailing newline
    if not lines:
        return []
    # IPython drops the indentation of a cell's first non-blank line from every line that
    # starts with it before it runs the cell (leading_empty_lines, then leading_indent)
    shifts = [0] * len(lines)
    opening = next((line for line in lines if line.strip()), "")
    leading = _LEADING_INDENT.match(opening)
    if leading is not None:
        prefix = leading.group(0)
        for i, line in enumerate(lines):
            if line.startswith(prefix):
                lines[i], shifts[i] = line[len(prefix):], len(prefix)
    first = lines[0].strip()
    if first.startswith("%%"):
        name = first[2:].split(None, 1)[0] if first[2:].strip() else ""
        if name not in PYTHON_CELL_MAGICS:
            return [("", 0)] * len(lines)
        out: list[tuple[str, int]] = [("", 0)]
        start = 1
    else:
        out = []
        start = 0
    quote: Optional[str] = None
    depth = 0  # brackets a Python line left open: the lines until they close continue it
    joined = False  # the previous Python line ended in a backslash
    continuing = False  # the previous line was a magic ending in a backslash
    for raw, base in zip(lines[start:], shifts[start:]):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if continuing:
            continuing = line.endswith("\\")
            out.append(("", 0))
            continue
        if quote is None and depth == 0 and not joined and stripped:
            statement = _STATEMENT_MAGIC.match(line)
            if statement is not None:
                magic = statement.group("magic")
                kept = statement.group("indent") + line[statement.end() :]
                out.append((kept, base + len(magic)))
                continue
            assign = _ASSIGN_MAGIC.match(line)
            if assign is not None:
                out.append((assign.group("target") + " None", base))
                continuing = line.endswith("\\")
                continue
            if _is_magic(stripped):
                indent = line[: len(line) - len(line.lstrip())]
                out.append((indent + "pass", base))
                continuing = line.endswith("\\")
                continue
        out.append((line, base))
        quote, depth = _line_state(line, quote, depth)
        joined = quote is None and line.endswith("\\")
    return out


def notebook_program(notebook: Notebook) -> tuple[str, CellMap]:
    """The code cells joined into one Python program, and its line map."""
    parts: list[str] = []
    entries: list[tuple[int, int, int]] = []
    for number, source in notebook_sources(notebook).items():
        for line_in_cell, (line, shift) in enumerate(_cell_program(source), start=1):
            parts.append(line + "\n")
            entries.append((number, line_in_cell, shift))
    return "".join(parts), CellMap(tuple(entries))


def _map_span(span: Span, cell_map: CellMap) -> tuple[int, Span]:
    cell, start_line, start_shift = cell_map.locate(span.start_line)
    end_cell, end_line, end_shift = cell_map.locate(span.end_line)
    if end_cell != cell:  # a span never crosses cells in the source; clamp to its first
        end_line, end_shift = start_line, start_shift
        end_col = span.start_col
    else:
        end_col = span.end_col
    return cell, Span(start_line, span.start_col + start_shift, end_line, end_col + end_shift)


def map_to_cells(d: Diagnostic, cell_map: CellMap) -> Diagnostic:
    """A diagnostic in program coordinates, moved to its code cell and cell-relative span.

    Fix edits are mapped too. ``Edit`` carries no cell, so a fix that edits another cell
    than the finding's keeps its title but loses its edits (display only).
    """
    cell, span = _map_span(d.span, cell_map)
    fix = d.fix
    if fix is not None:
        edits = []
        for edit in fix.edits:
            edit_cell, edit_span = _map_span(edit.span, cell_map)
            if edit_cell != cell:
                edits = []
                break
            edits.append(Edit(edit_span, edit.content))
        fix = Fix(fix.applicability, fix.title, tuple(edits))
    return replace(d, span=span, cell=cell, fix=fix)


# Message fields that name a place (rendered "path:line"), with the fields they are made
# from: in a notebook that line is one of the concatenated program until mapped here.
_PLACE_FIELDS = (("seed_at", "seed_path", "seed_line", "seed_cell"),)


def to_cells(d: Diagnostic, cell_maps: Mapping[str, CellMap]) -> Diagnostic:
    """A diagnostic with every notebook location in cell coordinates, like the text,
    JSON and SARIF reports give the finding's own: its span (:func:`map_to_cells`), its
    related locations, and the places its message names (``before `np.random.seed` runs
    (nb.ipynb:cell 4:2; ...)``)."""
    if d.path in cell_maps:
        d = map_to_cells(d, cell_maps[d.path])
    related = tuple(_related_in_cells(r, cell_maps) for r in d.related)
    data = dict(d.data)
    moved = False
    for field, path_key, line_key, cell_key in _PLACE_FIELDS:
        path, line = data.get(path_key), data.get(line_key)
        if field in data and path in cell_maps and isinstance(line, int) and cell_key not in data:
            cell, line, _ = cell_maps[path].locate(line)
            data.update({field: _place(path, data[line_key], cell_maps), line_key: line, cell_key: cell})
            moved = True
    draws = data.get("example_draws")  # RPL105's "`random.randint` at path:line, ..."
    if draws and any(path in cell_maps for _, path, _ in draws):
        data["example"] = ", ".join(f"`{text}` at {_place(path, line, cell_maps)}" for text, path, line in draws)
        moved = True
    message = d.message
    if moved:
        from reprolint.checks.registry import get_rule

        rule = get_rule(d.code)
        message = rule.render(data) if rule is not None else message
    return replace(d, related=related, data=data, message=places_in_cells(message, cell_maps))


def places_in_cells(text: str, cell_maps: Mapping[str, CellMap]) -> str:
    """``text`` with every ``path:line`` of a notebook it names (a call chain's "leads to
    the draw ... at nb.ipynb:87", an op's evidence) in cell coordinates,
    ``nb.ipynb:cell 3:80``: the line of the concatenated program means nothing to a
    reader of the notebook."""
    for path in cell_maps:
        if f"{path}:" not in text:
            continue
        pattern = re.compile(r"(?<![\w./-])" + re.escape(path) + r":(\d+)(?![\d:])")
        text = pattern.sub(lambda m: _place(path, int(m.group(1)), cell_maps), text)
    return text


def _place(path: str, line: int, cell_maps: Mapping[str, CellMap]) -> str:
    """``path:line``, or ``path:cell N:line`` in a notebook."""
    if path not in cell_maps:
        return f"{path}:{line}"
    cell, line, _ = cell_maps[path].locate(line)
    return f"{path}:cell {cell}:{line}"


def _related_in_cells(r: Related, cell_maps: Mapping[str, CellMap]) -> Related:
    message = places_in_cells(r.message, cell_maps)
    if r.path not in cell_maps or r.cell is not None:
        return r if message == r.message else Related(r.path, r.span, message, r.cell)
    cell, span = _map_span(r.span, cell_maps[r.path])
    return Related(r.path, span, message, cell)


def analyse_notebook(path: str, data: bytes) -> "FileAnalysis":
    """Read a notebook's bytes and analyse its code cells as one program."""
    from reprolint.analysis.facts import ModuleFacts
    from reprolint.api import MAX_FILE_BYTES, FileAnalysis, SourceError, analyse_source

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return FileAnalysis(path, error=SourceError(f"notebook is not UTF-8: {exc.reason}", line))
    try:
        notebook = read_notebook(text)
    except NotebookError as exc:
        return FileAnalysis(path, error=SourceError(exc.reason, exc.line, exc.column))
    if notebook.language != "python":  # an R or Julia notebook: said in the summary
        return FileAnalysis(path, facts=ModuleFacts(path), skipped=f"{notebook.language} notebook, not Python")
    source, cell_map = notebook_program(notebook)
    if len(source.encode("utf-8")) > MAX_FILE_BYTES:
        return FileAnalysis(
            path,
            error=SourceError(
                f"skipped: the code cells hold over the {MAX_FILE_BYTES:,}-byte limit"
            ),
        )
    analysis = analyse_source(source, path)
    if analysis.facts is not None:
        # A notebook is run top to bottom: an entry point by definition.
        analysis.facts.top_level_work = True
    analysis.cells = cell_map
    return analysis


# -- writing cells back ----------------------------------------------------------------

_DECODER = json.JSONDecoder()
_WS = re.compile(r"[ \t\n\r]*")


def _skip(text: str, i: int) -> int:
    match = _WS.match(text, i)
    return match.end() if match else i


def _members(text: str, i: int):  # -> Iterator[tuple[str, int, int]]
    """Yield (key, value start, value end) of the JSON object starting at ``text[i]``."""
    if text[i] != "{":
        raise NotebookError("expected an object")
    i = _skip(text, i + 1)
    if text[i] == "}":
        return
    while True:
        key, i = _DECODER.raw_decode(text, i)
        i = _skip(text, i)
        if text[i] != ":":
            raise NotebookError("expected `:`")
        start = _skip(text, i + 1)
        _, end = _DECODER.raw_decode(text, start)
        yield key, start, end
        i = _skip(text, end)
        if text[i] == "}":
            return
        if text[i] != ",":
            raise NotebookError("expected `,`")
        i = _skip(text, i + 1)


def _elements(text: str, i: int):  # -> Iterator[tuple[int, int]]
    if text[i] != "[":
        raise NotebookError("expected an array")
    i = _skip(text, i + 1)
    if text[i] == "]":
        return
    while True:
        _, end = _DECODER.raw_decode(text, i)
        yield i, end
        i = _skip(text, end)
        if text[i] == "]":
            return
        if text[i] != ",":
            raise NotebookError("expected `,`")
        i = _skip(text, i + 1)


def _source_spans(text: str, start: int) -> list[Optional[tuple[int, int]]]:
    """Where each cell's ``source`` value lies in the text (None for a cell without one)."""
    cells_at = None
    for key, value_start, _ in _members(text, start):
        if key == "cells":
            cells_at = value_start
    if cells_at is None:
        raise NotebookError("not a Jupyter notebook: no `cells` list")
    spans: list[Optional[tuple[int, int]]] = []
    for cell_start, _ in _elements(text, cells_at):
        found = None
        for key, value_start, value_end in _members(text, cell_start):
            if key == "source":
                found = (value_start, value_end)
        spans.append(found)
    return spans


def _split_lines(source: str) -> list[str]:
    # Jupyter stores a source as lines, each keeping its "\n".
    return re.findall(r"[^\n]*\n|[^\n]+$", source)


def _line_indent(text: str, pos: int) -> str:
    line_start = text.rfind("\n", 0, pos) + 1
    line = text[line_start:pos]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _indent_unit(text: str) -> str:
    match = re.search(r"\n([ \t]+)\S", text)
    return match.group(1) if match else " "


def _render_source(text: str, start: int, end: int, source: str, ensure_ascii: bool) -> str:
    old = text[start:end]
    dump = lambda s: json.dumps(s, ensure_ascii=ensure_ascii)  # noqa: E731
    if old.startswith('"'):
        return dump(source)
    lines = _split_lines(source)
    if "\n" not in old:
        if old.strip("[] \t") == "":  # an empty list: format like the rest of the file
            if "\n" not in text.rstrip():
                compact = text[start - 1] == ":"  # `"source":[]`, no space after the colon
                return "[" + ("," if compact else ", ").join(dump(s) for s in lines) + "]"
            key_indent = _line_indent(text, start)
            inner, close = key_indent + _indent_unit(text), key_indent
        else:
            sep = ", " if ", " in old else ","
            return "[" + sep.join(dump(s) for s in lines) + "]"
    else:
        first = _skip(text, start + 1)
        inner = _line_indent(text, first) if first < end - 1 else _line_indent(text, start)
        close = _line_indent(text, end - 1)
    if not lines:
        return "[]"
    nl = "\r\n" if "\r\n" in text else "\n"
    return "[" + ",".join(nl + inner + dump(s) for s in lines) + nl + close + "]"


def write_back(text: str, cell_sources: Mapping[int, str]) -> str:
    """The notebook ``text`` with the given code cells' sources replaced.

    ``cell_sources`` maps code cell numbers (1-based, as in ``Diagnostic.cell``) to new
    source text. Only those cells' ``source`` values change; every other byte is kept.
    A cell whose source is unchanged is left exactly as it was.
    """
    notebook = read_notebook(text)
    current = notebook_sources(notebook)
    offset = 1 if text.startswith("\ufeff") else 0
    spans = _source_spans(text, _skip(text, offset))
    ensure_ascii = text.isascii() and "\\u" in text
    replacements = []
    for number, source in cell_sources.items():
        if not 1 <= number <= len(notebook.code_cells):
            raise KeyError(f"no code cell {number} (the notebook has {len(notebook.code_cells)})")
        if current[number] == source:
            continue
        span = spans[notebook.code_cells[number - 1]]
        if span is None:
            raise NotebookError(f"code cell {number} has no `source`")
        replacements.append((span, _render_source(text, span[0], span[1], source, ensure_ascii)))
    for (start, end), new in sorted(replacements, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def json_lines(text: str) -> dict[int, list[int]]:
    """For each code cell, the line of the notebook file that holds each source line.

    Annotations (GitHub, SARIF viewers) point into the ``.ipynb`` file itself; this maps a
    cell-relative line to the file line where Jupyter stored it (a source stored as one
    string sits on one file line).
    """
    notebook = read_notebook(text)
    offset = 1 if text.startswith("\ufeff") else 0
    spans = _source_spans(text, _skip(text, offset))
    found: dict[int, list[int]] = {}
    # Newlines are counted from the last position, never from the start of the file:
    # linear in the notebook's size (counting from 0 for every line was quadratic).
    pos, line = 0, 1

    def line_at(offset: int) -> int:
        nonlocal pos, line
        line += text.count("\n", pos, offset)
        pos = offset
        return line

    for number, index in enumerate(notebook.code_cells, start=1):
        span = spans[index]
        if span is None:
            continue
        start, end = span
        if text[start] == "[":
            found[number] = [line_at(s) for s, _ in _elements(text, start)]
        else:
            found[number] = [line_at(start)]
    return found


def file_line(path: str, cell: int, line: int) -> Optional[int]:
    """The line of the notebook file at ``path`` holding ``line`` of code ``cell``."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    lines = _file_lines(path, (stat.st_mtime_ns, stat.st_size))
    if not lines or cell not in lines:
        return None
    at = lines[cell]
    return at[min(max(line, 1), len(at)) - 1]


@functools.lru_cache(maxsize=64)
def _file_lines(path: str, stamp: tuple[int, int]) -> Optional[dict[int, list[int]]]:
    try:
        with open(path, encoding="utf-8") as handle:
            return json_lines(handle.read())
    except (OSError, ValueError):
        return None
