"""The protocol: which LSP messages the server answers, each handed to the session.

Everything runs on pygls' event loop, one message at a time, so the session's state
needs no locks; a check runs between messages, and typing only restarts the debounce
timer (:meth:`reprolint.server.session.Session.check_later`).
"""

from __future__ import annotations

import asyncio
import os
from typing import Any, Optional

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from reprolint import __version__
from reprolint.server.actions import (
    FIX_ALL_KIND,
    contains,
    fix_all_edit,
    fixable,
    hover_markdown,
    noqa_action,
    overlaps,
    quick_fix,
    shown,
    shown_range,
)
from reprolint.server.session import CONFIG_FILES, Session

__all__ = ["DEFAULT_DEBOUNCE", "make_server"]

# Seconds without a change before a buffer is checked again (typing is not checked per
# key). A check of a 200-file project after an edit takes about 50 ms (bench/lsp_latency.py).
DEFAULT_DEBOUNCE = 0.05
# How often the server looks whether the client's process is still alive.
PARENT_POLL = 2.0

_WATCHED = ("**/*.py", "**/*.ipynb", "**/pyproject.toml", "**/reprolint.toml")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: it exists
    return True


def make_server(debounce: float = DEFAULT_DEBOUNCE) -> LanguageServer:
    """A reprolint language server (start it with ``server.start_io()``)."""
    server = LanguageServer(
        "reprolint",
        __version__,
        text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
        notebook_document_sync=types.NotebookDocumentSyncOptions(
            notebook_selector=[
                # Any notebook file (whatever the editor calls its notebook type) with
                # Python cells.
                types.NotebookDocumentFilterWithCells(
                    notebook=types.NotebookDocumentFilterPattern(pattern="**/*.ipynb"),
                    cells=[types.NotebookCellLanguage(language="python")],
                )
            ],
            save=True,
        ),
    )
    session = Session(server, debounce)
    server.reprolint = session  # type: ignore[attr-defined]  # for tests and the benchmark
    fix_all_supported: dict[str, bool] = {"resolve": False}

    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        options = params.initialization_options if isinstance(params.initialization_options, dict) else {}
        if isinstance(options.get("debounce"), (int, float)):
            session.debounce = max(0.0, float(options["debounce"]) / 1000)  # milliseconds
        folders = [f.uri for f in params.workspace_folders or []]
        if not folders and params.root_uri:
            folders = [params.root_uri]
        for uri in folders:
            session.add_folder(uri)
        action = params.capabilities.text_document and params.capabilities.text_document.code_action
        resolve = action.resolve_support if action is not None else None
        fix_all_supported["resolve"] = bool(resolve and "edit" in resolve.properties)

    @server.feature(types.INITIALIZED)
    def initialized(params: types.InitializedParams) -> None:
        for project in session.projects:
            if not project.loaded:
                session.load(project)
        watch = server.client_capabilities.workspace
        dynamic = watch and watch.did_change_watched_files and watch.did_change_watched_files.dynamic_registration
        if dynamic:
            options = types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern=g) for g in _WATCHED]
            )
            server.client_register_capability(
                types.RegistrationParams(registrations=[types.Registration(
                    id="reprolint-watched-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                    register_options=options,
                )])
            )
        if server.process_id:
            _watch_parent(server, server.process_id)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        doc = params.text_document
        # What `check` reads: .py files, and a Python script named on its own.
        if doc.uri.endswith(".py") or doc.language_id == "python":
            session.open_module(doc.uri, server.workspace.get_text_document(doc.uri).source)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        if server.workspace.get_notebook_document(cell_uri=uri) is not None:
            return  # a cell: the notebook's change message follows
        session.change_module(uri, server.workspace.get_text_document(uri).source)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        path = session.path_of(params.text_document.uri)
        if path is None:
            return
        if os.path.basename(path) in CONFIG_FILES:
            session.config_changed(path)
        elif path in session.documents:
            session.check_now(session.project_for(path))

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        session.close_module(params.text_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def notebook_open(params: types.DidOpenNotebookDocumentParams) -> None:
        session.update_notebook(params.notebook_document.uri, later=False)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def notebook_change(params: types.DidChangeNotebookDocumentParams) -> None:
        closed: list[str] = []
        structure = params.change.cells.structure if params.change.cells else None
        if structure is not None and structure.did_close:
            closed = [c.uri for c in structure.did_close]
        session.update_notebook(params.notebook_document.uri, later=True, closed_cells=closed)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def notebook_save(params: types.DidSaveNotebookDocumentParams) -> None:
        session.update_notebook(params.notebook_document.uri, later=False)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def notebook_close(params: types.DidCloseNotebookDocumentParams) -> None:
        session.close_notebook(params.notebook_document.uri, [c.uri for c in params.cell_text_documents])

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(params: types.DidChangeWatchedFilesParams) -> None:
        for change in params.changes:
            session.disk_changed(change.uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def folders(params: types.DidChangeWorkspaceFoldersParams) -> None:
        for removed in params.event.removed:
            session.remove_folder(removed.uri)
        for added in params.event.added:
            session.add_folder(added.uri)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(params: types.HoverParams) -> Optional[types.Hover]:
        uri = params.text_document.uri
        _, found = session.findings_at(uri)
        codec = server.workspace.position_codec
        here = [d for d in found if contains(shown_range(d, session.lines, codec), params.position)]
        if not here:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=hover_markdown(here)))

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND], resolve_provider=True
        ),
    )
    def code_action(params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        project, found = session.findings_at(uri)
        if project is None:
            return []
        only = params.context.only
        codec = server.workspace.position_codec
        actions: list[types.CodeAction] = []

        def wanted(kind: str) -> bool:
            return not only or any(kind == k or kind.startswith(f"{k}.") for k in only)

        if wanted(types.CodeActionKind.QuickFix):
            here = [d for d in found if overlaps(shown_range(d, session.lines, codec), params.range)]
            if here:
                place = session.locate(uri)
                path = place[1] if place else ""
                planned = {(d.code, d.cell, d.span, d.message): d for d in project.with_fixes(path)}
                for d in here:
                    full = planned.get((d.code, d.cell, d.span, d.message), d)
                    lsp = shown(d, session.lines, session.uri, codec)
                    action = quick_fix(full, lsp, session.lines, session.uri, codec)
                    if action is not None:
                        actions.append(action)
                for d in here:
                    action = noqa_action(d, shown(d, session.lines, session.uri, codec), session.lines, session.uri, codec)
                    if action is not None:
                        actions.append(action)
        if wanted(FIX_ALL_KIND) and all(d.cell is None for d in found):
            unsafe = project.settings.unsafe_fixes
            levels = [(False, "Fix all reprolint problems in this file")]
            if not unsafe and any(fixable(d, True) and not fixable(d, False) for d in found):
                levels.append((True, "Fix all reprolint problems in this file, unsafe fixes too"))
            for with_unsafe, title in levels:
                if not any(fixable(d, unsafe or with_unsafe) for d in found):
                    continue
                action = types.CodeAction(
                    title=f"reprolint: {title}", kind=FIX_ALL_KIND,
                    data={"fix_all": uri, "unsafe": unsafe or with_unsafe},
                )
                if not fix_all_supported["resolve"]:
                    action = resolve_action(action)
                actions.append(action)
        return actions

    @server.feature(types.CODE_ACTION_RESOLVE)
    def resolve_action(action: types.CodeAction) -> types.CodeAction:
        data: Any = action.data
        if not isinstance(data, dict) or "fix_all" not in data:
            return action
        place = session.locate(data["fix_all"])
        if place is None:
            return action
        project, path, _ = place
        changed = project.fix_all(path, bool(data.get("unsafe")))
        action.edit = fix_all_edit(changed, session.lines, session.uri)
        return action

    @server.feature(types.SHUTDOWN)
    def shutdown(params: Any) -> None:
        session.cancel_pending()

    return server


def _watch_parent(server: LanguageServer, pid: int) -> None:
    """Exit when the client's process is gone (an editor killed without `exit`)."""
    loop = asyncio.get_running_loop()

    def look() -> None:
        if _alive(pid):
            loop.call_later(PARENT_POLL, look)
            return
        os._exit(0)  # nobody is left to send `exit`; there is nothing to flush

    loop.call_later(PARENT_POLL, look)
