"""A notebook fixed as its program: reading it, and putting the fixed program's lines
back into their cells (only the changed cells' sources are rewritten)."""

from __future__ import annotations

import re
from typing import Any

from reprolint.fixes.edits import FixError, line_opcodes, split_lines
from reprolint.fixes.files import SourceFile, read_regular

__all__ = ["notebook_with_program", "read_notebook_source"]


def read_notebook_source(path: str) -> tuple[SourceFile, tuple[str, Any]]:
    """A notebook as read, and its program with the program-line -> cell map."""
    from reprolint.api import MAX_FILE_BYTES
    from reprolint.notebooks import notebook_program, read_notebook

    data = read_regular(path)
    text = data.decode("utf-8")  # UnicodeDecodeError is a ValueError
    notebook = read_notebook(text)  # NotebookError is a ValueError
    if notebook.language != "python":
        raise ValueError(f"a {notebook.language} notebook")
    bom = text.startswith("\ufeff")
    source = SourceFile(path, data, text[1:] if bom else text, "utf-8", bom)
    program, cell_map = notebook_program(notebook)
    if len(program.encode("utf-8")) > MAX_FILE_BYTES:
        raise ValueError(f"skipped: the code cells hold over the {MAX_FILE_BYTES:,}-byte limit")
    return source, (program, cell_map)


def notebook_with_program(text: str, old: str, new: str, cell_map: Any) -> str:
    """The notebook ``text`` whose program ``old`` became ``new``: each changed program
    line goes back to its cell (an insertion joins the cell of the line above it), and
    only the changed cells' sources are rewritten (outputs and metadata are kept).

    Raises FixError when a change touches a line that is not plain Python in its cell
    (an IPython magic the program replaced).
    """
    from reprolint.notebooks import notebook_sources, read_notebook, write_back

    cells = notebook_sources(read_notebook(text))
    originals = {number: source.split("\n") for number, source in cells.items()}
    for lines in originals.values():
        if lines and lines[-1] == "":
            lines.pop()
    a, b = split_lines(old), split_lines(new)
    if len(a) != len(cell_map.lines):
        raise FixError("the notebook's program does not match its cells")
    where = [(cell, line - 1) for cell, line, _ in cell_map.lines]

    def original(i: int) -> str:
        cell, index = where[i]
        return originals[cell][index]

    def plain(i: int) -> bool:
        return original(i).rstrip("\r") + "\n" == a[i]

    # Per program line: what replaces it, and what follows it.
    replaced: dict[int, list[str]] = {}
    after: dict[int, list[str]] = {}
    before_first: list[str] = []
    for tag, i1, i2, j1, j2 in line_opcodes(a, b):
        if tag == "equal":
            continue
        if any(not plain(i) for i in range(i1, i2)):
            raise FixError("a fix would change an IPython magic line")
        added = b[j1:j2]
        if i2 > i1:
            replaced[i1] = added
            for i in range(i1 + 1, i2):
                replaced[i] = []
        elif i1 > 0:
            after.setdefault(i1 - 1, []).extend(added)
        else:
            before_first.extend(added)
    changed: dict[int, str] = {}
    touched = {where[i][0] for i in (*replaced, *after)} | ({where[0][0]} if before_first else set())
    for cell in touched:
        out: list[str] = []
        # A cell written with CRLF line ends gets CRLF in the lines a fix adds too.
        crlf = any(line.endswith("\r") for line in originals[cell])

        def new_lines(lines: list[str]) -> list[str]:
            if not crlf:
                return lines
            return [line[:-1] + "\r\n" if line.endswith("\n") and not line.endswith("\r\n") else line for line in lines]

        for i, (c, index) in enumerate(where):
            if c != cell:
                continue
            if i == 0:
                out.extend(new_lines(before_first))
            kept = originals[cell][index]
            # A CRLF cell's last line has no "\r" of its own: it ends like the others.
            ending = "\r\n" if crlf and not kept.endswith("\r") else "\n"
            out.extend(new_lines(replaced[i]) if i in replaced else [kept + ending])
            out.extend(new_lines(after.get(i, [])))
        source = "".join(out)
        if not cells[cell].endswith("\n"):
            # The cell's last line keeps having no line end (a CRLF one: no stray "\r").
            source = re.sub(r"(\r?\n)+\Z", "", source)
        changed[cell] = source
    return write_back(text, changed)
