"""What the server knows between messages: its projects, the open documents, what each
document was last shown, and the pending (debounced) checks.

Documents are keyed by path (the project's key) and remembered by the URI the client
gave, so every answer names a document as the client does. A notebook is one path
whose code cells are documents of their own (LSP 3.17 notebook sync).
"""

from __future__ import annotations

import asyncio
import os
import traceback
from typing import Optional, Sequence

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from reprolint.model import Diagnostic
from reprolint.server.convert import diagnostic_to_lsp
from reprolint.server.notebook_docs import code_cell_uris, notebook_json
from reprolint.server.project import Project, normal_path

__all__ = ["CONFIG_FILES", "Session"]

CONFIG_FILES = ("pyproject.toml", "reprolint.toml")


class Session:
    """The server's state; ``server`` is the pygls LanguageServer it answers through."""

    def __init__(self, server: object, debounce: float) -> None:
        self.server = server
        self.debounce = debounce
        self.projects: list[Project] = []
        self.documents: dict[str, str] = {}  # path -> URI of an open module
        self.notebooks: dict[str, str] = {}  # path -> URI of an open notebook
        self.shown: dict[str, list[types.Diagnostic]] = {}  # URI -> last published
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._logged: set[str] = set()

    # ------------------------------------------------------------------ plumbing
    @property
    def workspace(self):  # -> pygls.workspace.Workspace
        return self.server.workspace  # type: ignore[attr-defined]

    def log(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        self.server.window_log_message(  # type: ignore[attr-defined]
            types.LogMessageParams(type=kind, message=f"reprolint: {message}")
        )

    def show(self, message: str, kind: types.MessageType = types.MessageType.Error) -> None:
        self.server.window_show_message(  # type: ignore[attr-defined]
            types.ShowMessageParams(type=kind, message=f"reprolint: {message}")
        )

    @staticmethod
    def path_of(uri: str) -> Optional[str]:
        path = to_fs_path(uri)
        return normal_path(path) if path else None

    # ------------------------------------------------------------------ projects
    def add_folder(self, uri: str) -> None:
        path = self.path_of(uri)
        if path is not None and all(p.root != path for p in self.projects):
            self.projects.append(Project(path, log=self.log))

    def remove_folder(self, uri: str) -> None:
        path = self.path_of(uri)
        self.projects = [p for p in self.projects if p.root != path]

    def project_for(self, path: str) -> Project:
        """The innermost workspace folder holding ``path``; else the file's own folder,
        checked as ``reprolint check FILE`` would (just the open files there)."""
        holding = [p for p in self.projects if p.contains(path)]
        if holding:
            project = max(holding, key=lambda p: len(p.root))
        else:
            project = Project(os.path.dirname(path), discover_files=False, log=self.log)
            self.projects.append(project)
        if not project.loaded:
            self.load(project)
        return project

    def load(self, project: Project) -> None:
        try:
            project.load()
        except Exception as exc:  # noqa: BLE001 - a bug must never stop the server
            self._internal_error(f"reading {project.root}", exc)
        if project.config_error is not None:
            self.show(f"configuration error: {project.config_error}")
            self.log(f"configuration error: {project.config_error}", types.MessageType.Error)

    def config_changed(self, path: str) -> None:
        """A pyproject.toml or reprolint.toml changed: every project it may configure
        reads its configuration (and its files) again and is checked again."""
        folder = os.path.dirname(path)
        for project in self.projects:
            configured = project.settings.config_path
            # The file is the project's configuration, or may become it: it is in the
            # project, or in a folder above it (found from the root upwards).
            above = (project.root + "/").startswith(folder.rstrip("/") + "/")
            if project.contains(folder) or above or (configured is not None and normal_path(configured) == path):
                if project.loaded:
                    self.load(project)
                    self.check_now(project)

    # ------------------------------------------------------------------ documents
    def open_module(self, uri: str, text: str) -> None:
        path = self.path_of(uri)
        if path is None:
            return
        self.documents[path] = uri
        project = self.project_for(path)
        project.set_buffer(path, text)
        self.check_now(project, force=[uri])

    def change_module(self, uri: str, text: str) -> None:
        path = self.path_of(uri)
        if path is None or path not in self.documents:
            return
        project = self.project_for(path)
        project.set_buffer(path, text)
        self.check_later(project)

    def close_module(self, uri: str) -> None:
        path = self.path_of(uri)
        if path is None:
            return
        self.documents.pop(path, None)
        self._clear(uri)
        project = self.project_for(path)
        project.drop_buffer(path)
        self.check_later(project)

    def _notebook_content(self, notebook: types.NotebookDocument) -> bytes:
        def text_of(cell_uri: str) -> Optional[str]:
            try:
                return self.workspace.get_text_document(cell_uri).source
            except Exception:  # noqa: BLE001 - a cell the client never sent
                return None

        return notebook_json(notebook, text_of)

    def update_notebook(self, uri: str, later: bool, closed_cells: Sequence[str] = ()) -> None:
        path = self.path_of(uri)
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        if path is None or notebook is None:
            return
        self.notebooks[path] = uri
        for cell_uri in closed_cells:
            self._clear(cell_uri)
        project = self.project_for(path)
        project.set_buffer(path, self._notebook_content(notebook))
        if later:
            self.check_later(project)
        else:
            self.check_now(project, force=code_cell_uris(notebook))

    def close_notebook(self, uri: str, cell_uris: Sequence[str]) -> None:
        path = self.path_of(uri)
        if path is None:
            return
        self.notebooks.pop(path, None)
        for cell_uri in cell_uris:
            self._clear(cell_uri)
        project = self.project_for(path)
        project.drop_buffer(path)
        self.check_later(project)

    def disk_changed(self, uri: str) -> None:
        path = self.path_of(uri)
        if path is None:
            return
        if os.path.basename(path) in CONFIG_FILES:
            self.config_changed(path)
            return
        if not path.endswith((".py", ".ipynb")):
            return
        for project in self.projects:
            if project.loaded and project.contains(path):
                project.disk_changed(path)
                self.check_later(project)

    # ------------------------------------------------------------------ lookups
    def uri(self, path: str, cell: Optional[int] = None) -> str:
        """The URI the client knows a file, or a notebook's code cell, by."""
        if cell is not None and path in self.notebooks:
            notebook = self.workspace.get_notebook_document(notebook_uri=self.notebooks[path])
            cells = code_cell_uris(notebook) if notebook is not None else []
            if 0 < cell <= len(cells):
                return cells[cell - 1]
            return self.notebooks[path]
        return self.documents.get(path) or self.notebooks.get(path) or from_fs_path(path) or path

    def lines(self, path: str, cell: Optional[int] = None) -> Sequence[str]:
        """The text of a file (an open buffer first) or of a notebook cell, as lines."""
        uri = self.uri(path, cell)
        if path in self.documents or (cell is not None and path in self.notebooks):
            try:
                return self.workspace.get_text_document(uri).lines
            except Exception:  # noqa: BLE001 - not open after all: read the disk
                pass
        for project in self.projects:
            text = project.text_of(path) if project.contains(path) else None
            if text is not None:
                return text.splitlines(keepends=True)
        try:
            from reprolint.api import decode_source
            from reprolint.discovery import read_regular

            return decode_source(read_regular(path)).splitlines(keepends=True)
        except Exception:  # noqa: BLE001 - unreadable: positions are given as they are
            return []

    def locate(self, uri: str) -> Optional[tuple[Project, str, Optional[int]]]:
        """(project, path, code cell) of an open module or notebook cell."""
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        if notebook is not None:
            path = self.path_of(notebook.uri)
            cells = code_cell_uris(notebook)
            if path is None or uri not in cells:
                return None
            return self.project_for(path), path, cells.index(uri) + 1
        path = self.path_of(uri)
        if path is None:
            return None
        return self.project_for(path), path, None

    def findings_at(self, uri: str) -> tuple[Optional[Project], list[Diagnostic]]:
        """The findings shown in a document (a notebook cell: that cell's)."""
        place = self.locate(uri)
        if place is None:
            return None, []
        project, path, cell = place
        return project, [d for d in project.results.get(path, []) if d.cell == cell]

    # ------------------------------------------------------------------ checking
    def check_later(self, project: Project) -> None:
        """Check after ``debounce`` seconds without another change (typing)."""
        pending = self._timers.pop(project.root, None)
        if pending is not None:
            pending.cancel()
        if self.debounce <= 0:
            self.check_now(project)
            return
        loop = asyncio.get_running_loop()
        self._timers[project.root] = loop.call_later(self.debounce, self.check_now, project)

    def check_now(self, project: Project, force: Sequence[str] = ()) -> None:
        """Check ``project`` and publish every open document whose findings changed
        (and those in ``force``, which the client is waiting for)."""
        pending = self._timers.pop(project.root, None)
        if pending is not None:
            pending.cancel()
        try:
            results = project.recheck()
        except Exception as exc:  # noqa: BLE001 - one broken analysis never stops the server
            self._internal_error(f"checking {project.root}", exc)
            return
        self._log_internal_errors(results)
        self.publish(project, results, force)

    def publish(self, project: Project, results: dict[str, list[Diagnostic]], force: Sequence[str]) -> None:
        codec = self.workspace.position_codec
        wanted: dict[str, list[types.Diagnostic]] = {}
        for path, uri in self.documents.items():
            if self.project_for(path) is project:
                wanted[uri] = [diagnostic_to_lsp(d, self.lines, self.uri, codec) for d in results.get(path, [])]
        for path, uri in self.notebooks.items():
            if self.project_for(path) is not project:
                continue
            notebook = self.workspace.get_notebook_document(notebook_uri=uri)
            for cell_uri in code_cell_uris(notebook) if notebook is not None else []:
                wanted[cell_uri] = []
            for d in results.get(path, []):
                cell_uri = self.uri(path, d.cell)
                wanted.setdefault(cell_uri, []).append(diagnostic_to_lsp(d, self.lines, self.uri, codec))
        for uri, diagnostics in wanted.items():
            if uri in force or self.shown.get(uri) != diagnostics:
                self.shown[uri] = diagnostics
                self.server.text_document_publish_diagnostics(  # type: ignore[attr-defined]
                    types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics)
                )

    def _clear(self, uri: str) -> None:
        if self.shown.pop(uri, None):
            self.server.text_document_publish_diagnostics(  # type: ignore[attr-defined]
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )

    def _internal_error(self, what: str, exc: BaseException) -> None:
        trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        self.log(
            f"internal error while {what}: {type(exc).__name__}: {exc} "
            f"(a bug in reprolint; the last results stay shown)\n{trace}",
            types.MessageType.Error,
        )

    def _log_internal_errors(self, results: dict[str, list[Diagnostic]]) -> None:
        """A file whose analysis crashed is RPL900 "internal error", as in `check`; the
        client's log gets it once too, since it is reprolint's bug, not the file's."""
        for path, found in results.items():
            for d in found:
                if d.code == "RPL900" and "internal error" in d.message:
                    key = f"{path}\0{d.message}"
                    if key not in self._logged:
                        self._logged.add(key)
                        self.log(f"{path}: {d.message}", types.MessageType.Error)

    def cancel_pending(self) -> None:
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
