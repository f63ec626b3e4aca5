"""`reprolint server` end to end: a real LSP client (pytest-lsp) drives the server over
stdio, and every test asserts what an editor would show or write."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

from reprolint.api import check_paths, fix_source  # noqa: E402
from reprolint.checks.registry import get_rule  # noqa: E402
from reprolint.config import Settings  # noqa: E402
from reprolint.docs import rule_markdown  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CRASHING = ROOT / "tests" / "fixtures" / "server" / "crashing_server.py"
WAIT = float(os.environ.get("REPROLINT_TEST_LSP_WAIT", "60"))  # seconds: generous, for a loaded CI machine; nothing here is timed

UNSEEDED = "import torch\n\na = torch.randn(3)\nb = torch.rand(2)\n"
# RPL101 and RPL401 (both fixable, safe: seeding a never-seeded library, sorting a set of
# strings); RPL307 only where RPL401 is ignored (display-only).
VOCAB = (
    "import torch\n\nx = torch.randn(3)\nwords = list(set(open('w.txt').read().split()))\n"
    "vocab = {w: i for i, w in enumerate(words)}\ntorch.save(vocab, 'v.pt')\n"
)


def _client_factory() -> Any:
    client = pytest_lsp.make_test_lsp_client()

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        client.registrations = getattr(client, "registrations", []) + list(params.registrations)  # type: ignore[attr-defined]

    return client


def _capabilities() -> types.ClientCapabilities:
    caps = pytest_lsp.client_capabilities("visual-studio-code")
    caps.notebook_document = types.NotebookDocumentClientCapabilities(
        synchronization=types.NotebookDocumentSyncClientCapabilities()
    )
    return caps


async def _start(root: Path, command: Optional[list[str]] = None, debounce: int = 0, **init: Any) -> Any:
    command = command or [sys.executable, "-m", "reprolint", "server"]
    config = pytest_lsp.ClientServerConfig(command, client_factory=_client_factory, server_env={**os.environ})
    client = await config.start()
    init.setdefault("workspace_folders", [types.WorkspaceFolder(uri=from_fs_path(str(root)), name=root.name)])
    if init["workspace_folders"] is None:
        init["root_uri"] = from_fs_path(str(root))  # an older client: one root, no folders
    params = types.InitializeParams(
        capabilities=_capabilities(), initialization_options={"debounce": debounce}, **init,
    )
    client.init_result = await asyncio.wait_for(client.initialize_session(params), WAIT)
    return client


async def _until(client: Any, uri: str, condition: Callable[[Sequence[types.Diagnostic]], bool]) -> Sequence[types.Diagnostic]:
    """Wait until the diagnostics published for ``uri`` satisfy ``condition``."""
    async def wait() -> Sequence[types.Diagnostic]:
        while uri not in client.diagnostics or not condition(client.diagnostics[uri]):
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        return client.diagnostics[uri]

    return await asyncio.wait_for(wait(), WAIT)


def _codes(diagnostics: Sequence[types.Diagnostic]) -> list[str]:
    return sorted(str(d.code) for d in diagnostics)


def _open(client: Any, path: Path, text: Optional[str] = None) -> str:
    uri = from_fs_path(str(path))
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="python", version=1, text=path.read_text() if text is None else text,
    )))
    return uri


def _change(client: Any, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
    ))


def _offset(text: str, position: types.Position) -> int:
    lines = text.splitlines(keepends=True)
    before = sum(len(line) for line in lines[: position.line])
    return before + position.character  # ASCII texts here: UTF-16 units are characters


def _apply(text: str, edits: Sequence[types.TextEdit]) -> str:
    """Apply text edits as an editor does (from the end, so offsets stay valid)."""
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: _offset(text, edit.range.start)] + edit.new_text + text[_offset(text, edit.range.end):]
    return text


async def _actions(client: Any, uri: str, diagnostic: types.Diagnostic, only: Optional[list[str]] = None) -> list[types.CodeAction]:
    return await asyncio.wait_for(client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic], only=only),
    )), WAIT)


def _cli_json(root: Path) -> list[dict[str, Any]]:
    run = subprocess.run(
        [sys.executable, "-m", "reprolint", "check", "--no-cache", "--output-format", "json", str(root)],
        capture_output=True, text=True, cwd=root,
    )
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)


@pytest.mark.asyncio
async def test_initialize_announces_what_the_server_does(tmp_path: Path) -> None:
    client = await _start(tmp_path)
    try:
        caps = client.init_result.capabilities
        assert client.init_result.server_info.name == "reprolint"
        assert caps.hover_provider
        assert set(caps.code_action_provider.code_action_kinds) == {"quickfix", "source.fixAll.reprolint"}
        assert caps.notebook_document_sync.notebook_selector[0].cells[0].language == "python"
        # Registered by the server after `initialized`: the files it watches.
        for _ in range(int(WAIT * 10)):
            if getattr(client, "registrations", None):
                break
            await asyncio.sleep(0.1)
        methods = [r.method for r in getattr(client, "registrations", [])]
        assert methods == [types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    finally:
        await client.shutdown_session()
    assert client._server.returncode == 0  # shutdown then exit: a clean exit


@pytest.mark.asyncio
async def test_unseeded_draw_is_rpl101_with_related_locations_as_check_reports(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(UNSEEDED)
    client = await _start(tmp_path)
    try:
        uri = _open(client, tmp_path / "train.py")
        shown = await _until(client, uri, lambda ds: bool(ds))
    finally:
        await client.shutdown_session()
    [d] = [d for d in shown if d.code == "RPL101"]
    assert d.source == "reprolint"
    assert d.severity == types.DiagnosticSeverity.Warning
    assert (d.range.start.line, d.range.start.character, d.range.end.character) == (2, 4, 18)
    assert d.code_description.href.endswith("guide.md#rpl101-unseeded-global-rng")
    [related] = d.related_information
    assert related.location.uri == uri
    assert related.location.range.start.line == 3
    assert related.message == "`torch.rand` also draws from torch's global RNG"
    # The same findings as `reprolint check` on the folder: codes, places, messages.
    cli = _cli_json(tmp_path)
    assert [(f["code"], f["line"] - 1, f["column"] - 1, f["end_column"] - 1, f["message"]) for f in cli] == [
        (x.code, x.range.start.line, x.range.start.character, x.range.end.character, x.message) for x in shown
    ]
    assert [r["message"] for r in cli[0]["related"]] == [related.message]


@pytest.mark.asyncio
async def test_quick_fix_is_fixs_edit_and_clears_the_finding(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(UNSEEDED)
    client = await _start(tmp_path)
    try:
        uri = _open(client, tmp_path / "train.py")
        [d] = [d for d in await _until(client, uri, bool) if d.code == "RPL101"]
        actions = await _actions(client, uri, d)
        [fix] = [a for a in actions if a.title.startswith("reprolint (RPL101): Seed")]
        # seeding a library the program never seeds is safe (issue 27): preferred
        assert "unsafe" not in fix.title and fix.is_preferred
        assert fix.kind == types.CodeActionKind.QuickFix and fix.diagnostics[0].code == "RPL101"
        fixed = _apply(UNSEEDED, fix.edit.changes[uri])
        assert fixed == fix_source(UNSEEDED, str(tmp_path / "train.py"), Settings(root=str(tmp_path)), unsafe_fixes=True)
        _change(client, uri, fixed, 2)
        after = await _until(client, uri, lambda ds: "RPL101" not in _codes(ds))
        assert "RPL101" not in _codes(after)
    finally:
        await client.shutdown_session()


@pytest.mark.asyncio
async def test_noqa_action_suppresses_the_finding(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(UNSEEDED)
    client = await _start(tmp_path)
    try:
        uri = _open(client, tmp_path / "train.py")
        [d] = [d for d in await _until(client, uri, bool) if d.code == "RPL101"]
        [noqa] = [a for a in await _actions(client, uri, d) if "noqa" in a.title]
        assert noqa.title == "reprolint (RPL101): Suppress with `# noqa: RPL101`"
        text = _apply(UNSEEDED, noqa.edit.changes[uri])
        assert text.splitlines()[2] == "a = torch.randn(3)  # noqa: RPL101"
        _change(client, uri, text, 2)
        # `# noqa` on the first draw moves the report to the next draw of the cause.
        after = await _until(client, uri, lambda ds: all(x.range.start.line != 2 for x in ds))
        assert [(x.code, x.range.start.line) for x in after if x.code == "RPL101"] == [("RPL101", 3)]
    finally:
        await client.shutdown_session()


@pytest.mark.asyncio
async def test_fix_all_in_file_writes_what_fix_writes(tmp_path: Path) -> None:
    source = VOCAB
    (tmp_path / "train.py").write_text(source)
    client = await _start(tmp_path)
    try:
        uri = _open(client, tmp_path / "train.py")
        shown = await _until(client, uri, bool)
        actions = await _actions(client, uri, shown[0], only=["source.fixAll"])
        # Every fix here is safe: the plain action has them all to do.
        [action] = actions
        assert action.title == "reprolint: Fix all reprolint problems in this file"
        assert action.edit is None  # resolved on demand (VS Code supports resolving edits)
        resolved = await asyncio.wait_for(client.code_action_resolve_async(action), WAIT)
        fixed = _apply(source, resolved.edit.changes[uri])
        assert fixed == fix_source(source, str(tmp_path / "train.py"), Settings(root=str(tmp_path)), unsafe_fixes=True)
        _change(client, uri, fixed, 2)
        assert {"RPL101", "RPL401"} <= set(_codes(shown))
        after = await _until(client, uri, lambda ds: not {"RPL101", "RPL401"} & set(_codes(ds)))
        assert not {"RPL101", "RPL401"} & set(_codes(after))
    finally:
        await client.shutdown_session()


@pytest.mark.asyncio
async def test_hover_shows_the_rule_explanation(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(UNSEEDED)
    client = await _start(tmp_path)
    try:
        uri = _open(client, tmp_path / "train.py")
        [d] = [d for d in await _until(client, uri, bool) if d.code == "RPL101"]
        hover = await asyncio.wait_for(client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=2, character=8),
        )), WAIT)
        nothing = await asyncio.wait_for(client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=2),
        )), WAIT)
    finally:
        await client.shutdown_session()
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert hover.contents.value.startswith(f"**RPL101** {d.message}")
    assert rule_markdown(get_rule("RPL101")).strip() in hover.contents.value
    assert nothing is None


@pytest.mark.asyncio
async def test_editing_one_module_republishes_another_modules_findings(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text("import torch\n\n\ndef build():\n    return torch.nn.Linear(2, 2)\n")
    train = (
        "import torch\n\nfrom model import build\n\nnet = build()\n"
        "opt = torch.optim.SGD(net.parameters(), lr=0.1)\nnet(torch.ones(2)).index_select(0, idx).sum().backward()\nopt.step()\n"
    )
    (tmp_path / "train.py").write_text(train)
    client = await _start(tmp_path)
    try:
        model_uri = _open(client, tmp_path / "model.py")
        train_uri = _open(client, tmp_path / "train.py")
        before = await _until(client, model_uri, lambda ds: "RPL101" in _codes(ds))
        [d] = [d for d in before if d.code == "RPL101"]
        assert d.range.start.line == 4 and "train.py" in d.message
        # Its fix seeds the program at its entry point: the quick fix edits train.py.
        [fix] = [a for a in await _actions(client, model_uri, d) if a.title.startswith("reprolint (RPL101): Seed")]
        assert list(fix.edit.changes) == [train_uri]
        assert "reprolint.runtime.install(seed=0)" in _apply(train, fix.edit.changes[train_uri])
        # The seed goes into train.py, the buffer (unsaved): model.py's finding goes away.
        _change(client, train_uri, train.replace("net = build()", "torch.manual_seed(0)\nnet = build()"), 2)
        after = await _until(client, model_uri, lambda ds: "RPL101" not in _codes(ds))
        assert "RPL101" not in _codes(after)
        # ...and comes back when the seed is removed again.
        _change(client, train_uri, train, 3)
        again = await _until(client, model_uri, lambda ds: "RPL101" in _codes(ds))
        assert [x.message for x in again if x.code == "RPL101"] == [d.message]
    finally:
        await client.shutdown_session()


@pytest.mark.asyncio
async def test_notebook_cells_get_their_findings(tmp_path: Path) -> None:
    nb_uri = from_fs_path(str(tmp_path / "explore.ipynb"))
    cells = [
        "import torch\n", "# Train\n",
        "net = torch.nn.Linear(2, 2)\nopt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
        "net(torch.rand(2)).index_select(0, idx).sum().backward()\nopt.step()\n",
    ]
    kinds = [types.NotebookCellKind.Code, types.NotebookCellKind.Markup, types.NotebookCellKind.Code]
    cell_uris = [f"vscode-notebook-cell:{tmp_path}/explore.ipynb#cell{i}" for i in range(3)]
    client = await _start(tmp_path)
    try:
        client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=nb_uri, notebook_type="jupyter-notebook", version=1,
                cells=[types.NotebookCell(kind=k, document=u) for k, u in zip(kinds, cell_uris)],
            ),
            cell_text_documents=[
                types.TextDocumentItem(uri=u, language_id="python" if k == types.NotebookCellKind.Code else "markdown",
                                       version=1, text=t)
                for u, k, t in zip(cell_uris, kinds, cells)
            ],
        ))
        shown = await _until(client, cell_uris[2], lambda ds: "RPL101" in _codes(ds))
        [d] = [d for d in shown if d.code == "RPL101"]
        assert (d.range.start.line, d.range.start.character) == (0, 6)  # cell-relative
        assert [(r.location.uri, r.location.range.start.line) for r in d.related_information] == [(cell_uris[2], 2)]
        assert client.diagnostics[cell_uris[0]] == [] or all(x.code != "RPL101" for x in client.diagnostics[cell_uris[0]])
        actions = await _actions(client, cell_uris[2], d)
        assert any(a.title == "reprolint (RPL101): Suppress with `# noqa: RPL101`" for a in actions)
        # A change to the first cell (seeding torch) clears the third cell's finding.
        client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(version=2, uri=nb_uri),
            change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(text_content=[
                types.NotebookDocumentCellContentChanges(
                    document=types.VersionedTextDocumentIdentifier(uri=cell_uris[0], version=2),
                    changes=[types.TextDocumentContentChangeWholeDocument(text="import torch\ntorch.manual_seed(0)\n")],
                )
            ])),
        ))
        after = await _until(client, cell_uris[2], lambda ds: "RPL101" not in _codes(ds))
        assert "RPL101" not in _codes(after)
    finally:
        await client.shutdown_session()


@pytest.mark.asyncio
async def test_configuration_comes_from_pyproject_and_a_change_rechecks(tmp_path: Path) -> None:
    source = VOCAB
    (tmp_path / "train.py").write_text(source)
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.reprolint]\nignore = ["RPL101"]\n')
    client = await _start(tmp_path)
    try:
        uri = _open(client, tmp_path / "train.py")
        first = await _until(client, uri, bool)
        assert "RPL401" in _codes(first) and "RPL101" not in _codes(first)
        assert _codes(first) == sorted(f["code"] for f in _cli_json(tmp_path))
        pyproject.write_text('[tool.reprolint]\nignore = ["RPL401"]\n')
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=from_fs_path(str(pyproject)), type=types.FileChangeType.Changed)
        ]))
        second = await _until(client, uri, lambda ds: "RPL101" in _codes(ds))
        assert "RPL401" not in _codes(second)
        # A configuration `check` refuses is an error the user sees; nothing is guessed.
        pyproject.write_text('[tool.reprolint]\nignroe = ["RPL401"]\n')
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=from_fs_path(str(pyproject)), type=types.FileChangeType.Changed)
        ]))
        await _until(client, uri, lambda ds: not ds)
        assert any("unknown key `ignroe`" in m.message for m in client.messages)
    finally:
        await client.shutdown_session()


@pytest.mark.asyncio
async def test_a_crash_in_one_analysis_is_logged_and_the_server_goes_on(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("PLANTED_FILE_BUG = 1\n")
    (tmp_path / "train.py").write_text(UNSEEDED)
    client = await _start(tmp_path, command=[sys.executable, str(CRASHING)])
    try:
        broken = _open(client, tmp_path / "broken.py")
        [d] = await _until(client, broken, bool)
        assert d.code == "RPL900"
        assert d.message.endswith("internal error: RuntimeError: planted bug in the per-file pass")
        assert any(
            m.type == types.MessageType.Error and "planted bug in the per-file pass" in m.message
            for m in client.log_messages
        )
        train = _open(client, tmp_path / "train.py")
        assert "RPL101" in _codes(await _until(client, train, bool))
        # A bug in the program check itself: logged, the last findings stay, and the
        # server answers the next change.
        planted = _open(client, tmp_path / "planted_check_bug.py", "x = 1\n")
        for _ in range(int(WAIT * 10)):
            if any("planted bug in the program check" in m.message for m in client.log_messages):
                break
            await asyncio.sleep(0.1)
        assert any(
            m.type == types.MessageType.Error and "planted bug in the program check" in m.message
            for m in client.log_messages
        )
        client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri=planted)))
        _change(client, train, "import torch\n\ntorch.manual_seed(0)\na = torch.randn(3)\n", 2)
        after = await _until(client, train, lambda ds: "RPL101" not in _codes(ds))
        assert "RPL101" not in _codes(after)
    finally:
        await client.shutdown_session()
    assert client._server.returncode == 0


@pytest.mark.asyncio
async def test_server_exits_when_the_client_process_dies(tmp_path: Path) -> None:
    parent = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    client = await _start(tmp_path, process_id=parent.pid)
    try:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        code = await asyncio.wait_for(client._server.wait(), WAIT)
        assert code == 0
    finally:
        if client._server.returncode is None:
            client._server.kill()
        await client.stop()


def test_without_pygls_the_command_says_what_to_install(tmp_path: Path) -> None:
    code = (
        "import sys\nsys.modules['pygls'] = None\nsys.modules['lsprotocol'] = None\n"
        "from reprolint.cli import main\nsys.exit(main(['server']))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr == 'reprolint: error: `reprolint server` needs pygls and lsprotocol: pip install "reprolint[lsp]"\n'


def test_check_paths_agrees_with_the_program_check_the_server_uses(tmp_path: Path) -> None:
    # The server's path: check_analyses + finish, per file; check's: check_paths.
    from reprolint.server.project import Project

    (tmp_path / "model.py").write_text("import torch\n\n\ndef build():\n    return torch.nn.Linear(2, 2)\n")
    (tmp_path / "train.py").write_text("import torch\nfrom model import build\n\nnet = build()\nx = torch.randn(1)\n")
    project = Project(str(tmp_path))
    project.load()
    served = [d for path in sorted(project.recheck()) for d in project.with_fixes(path)]
    checked = check_paths([project.root], Settings(root=project.root)).diagnostics
    assert [d.to_dict() for d in served] == [d.to_dict() for d in checked]
    assert served  # not two empty lists



@pytest.mark.asyncio
async def test_typing_is_debounced_into_one_check(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text("import torch\n")
    # A long debounce (milliseconds): the keystrokes below arrive well within it, so
    # only the last text is checked and published.
    client = await _start(tmp_path, debounce=1500)
    try:
        uri = _open(client, tmp_path / "train.py")
        await _until(client, uri, lambda ds: True)
        texts = ["import torch\nx = torch.randn(3)\n", "import random\nx = random.random()\n",
                 "import torch\nx = torch.rand(3)\n"]
        for version, text in enumerate(texts, start=2):
            _change(client, uri, text, version)

        async def count() -> int:
            seen = 0
            while True:
                params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
                if params.uri == uri:
                    seen += 1
                    if any("`torch.rand`" in d.message for d in params.diagnostics):
                        return seen

        assert await asyncio.wait_for(count(), WAIT) == 1  # one check, not one per change
        assert [d.code for d in client.diagnostics[uri]] == ["RPL101"]
    finally:
        await client.shutdown_session()


@pytest.mark.asyncio
async def test_columns_are_in_the_clients_encoding(tmp_path: Path) -> None:
    # "😀" is one code point and two UTF-16 units: the default encoding is UTF-16.
    source = 'import torch\n\ns = "😀"; a = torch.randn(3)\n'
    (tmp_path / "train.py").write_text(source, encoding="utf-8")
    client = await _start(tmp_path)
    try:
        uri = _open(client, tmp_path / "train.py")
        [d] = [d for d in await _until(client, uri, bool) if d.code == "RPL101"]
    finally:
        await client.shutdown_session()
    line = source.splitlines()[2]
    units = len(line[: line.index("torch.randn")].encode("utf-16-le")) // 2
    assert (d.range.start.line, d.range.start.character) == (2, units)
    assert units == line.index("torch.randn") + 1


@pytest.mark.asyncio
async def test_a_buffer_that_does_not_parse_is_rpl900_as_in_check(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(UNSEEDED)
    client = await _start(tmp_path)
    try:
        uri = _open(client, tmp_path / "train.py")
        await _until(client, uri, bool)
        broken = "import torch\n\na = torch.randn(3\n"
        _change(client, uri, broken, 2)  # unsaved: the disk still holds UNSEEDED
        [d] = await _until(client, uri, lambda ds: [x.code for x in ds] == ["RPL900"])
    finally:
        await client.shutdown_session()
    (tmp_path / "train.py").write_text(broken)
    [cli] = _cli_json(tmp_path)
    assert (d.code, d.message, d.range.start.line + 1, d.range.start.character + 1) == (
        cli["code"], cli["message"], cli["line"], cli["column"])
    assert d.severity == types.DiagnosticSeverity.Error


@pytest.mark.parametrize(
    ("source", "line", "expected"),
    [
        ("a = torch.randn(3)\n", 1, "a = torch.randn(3)  # noqa: RPL101\n"),
        ("a = torch.randn(3)  # noqa: RPL102\n", 1, "a = torch.randn(3)  # noqa: RPL102, RPL101\n"),
        ("a = torch.randn(3)   \r\n", 1, "a = torch.randn(3)  # noqa: RPL101\r\n"),
        # The first line ends inside a string: the comment goes on the last line.
        ('x = f("""\ndoc\n""", torch.randn(3))\n', 1, 'x = f("""\ndoc\n""", torch.randn(3))  # noqa: RPL101\n'),
    ],
)
def test_noqa_edit_puts_the_comment_where_check_reads_it(source: str, line: int, expected: str) -> None:
    from reprolint.api import check_source
    from reprolint.fixing import apply_edits
    from reprolint.model import Diagnostic, Span
    from reprolint.server.actions import noqa_edit

    last = source.count("\n")
    d = Diagnostic("RPL101", "unseeded-global-rng", "m", "t.py", Span(line, 1, last, 2))
    edit = noqa_edit(d, source.splitlines(keepends=True))
    assert edit is not None
    fixed = apply_edits(source, [edit])
    assert fixed == expected
    program = "import torch\n{}".format
    assert "RPL101" in [x.code for x in check_source(program(source.replace("f(", "print(")), "t.py")]
    assert "RPL101" not in [x.code for x in check_source(program(fixed.replace("f(", "print(")), "t.py")]


@pytest.mark.asyncio
async def test_each_workspace_folder_has_its_own_configuration(tmp_path: Path) -> None:
    quiet, loud = tmp_path / "quiet", tmp_path / "loud"
    for folder in (quiet, loud):
        folder.mkdir()
        (folder / "train.py").write_text(VOCAB)
    (quiet / "pyproject.toml").write_text('[tool.reprolint]\nselect = ["RPL4"]\n')
    client = await _start(quiet, workspace_folders=None)
    try:
        client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
            event=types.WorkspaceFoldersChangeEvent(
                added=[types.WorkspaceFolder(uri=from_fs_path(str(loud)), name="loud")], removed=[],
            )
        ))
        quiet_uri = _open(client, quiet / "train.py")
        loud_uri = _open(client, loud / "train.py")
        assert _codes(await _until(client, quiet_uri, bool)) == ["RPL401"]
        assert _codes(await _until(client, loud_uri, bool)) == ["RPL101", "RPL401"]
    finally:
        await client.shutdown_session()
