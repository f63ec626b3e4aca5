"""Notebooks as LSP 3.17 sends them (a notebook document and one text document per cell)
and as reprolint reads them (a ``.ipynb`` file's JSON, code cells numbered from 1)."""

from __future__ import annotations

import json
from typing import Callable, Optional

from lsprotocol import types

__all__ = ["code_cell_uris", "notebook_json"]


def _is_code(cell: types.NotebookCell) -> bool:
    return cell.kind == types.NotebookCellKind.Code


def code_cell_uris(notebook: types.NotebookDocument) -> list[str]:
    """The URIs of the code cells, in order: reprolint's cell N is item N - 1."""
    return [cell.document for cell in notebook.cells if _is_code(cell)]


def notebook_json(notebook: types.NotebookDocument, text_of: Callable[[str], Optional[str]]) -> bytes:
    """The notebook as an nbformat 4 file holding the buffers' cell texts, for the same
    reading as a notebook on disk (:func:`reprolint.notebooks.analyse_notebook`)."""
    cells = []
    for cell in notebook.cells:
        source = text_of(cell.document) or ""
        if _is_code(cell):
            cells.append({"cell_type": "code", "execution_count": None, "metadata": {},
                          "outputs": [], "source": source})
        else:
            cells.append({"cell_type": "markdown", "metadata": {}, "source": source})
    metadata = dict(notebook.metadata or {})
    metadata.setdefault("language_info", {"name": "python"})
    document = {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(document, ensure_ascii=False).encode("utf-8")
