"""Latency and memory of `reprolint server`, driven over stdio by a real LSP client.

    python bench/lsp_latency.py [--edits 20] [--big-files 2000] [--save bench/results/lsp_latency.txt]

Synthetic projects (written to a temporary folder): a package of N modules imported as
a binary tree (module i imports modules 2i+1 and 2i+2; a chain N deep would be no
project's shape), the root module 500 lines long, and a `train.py` entry point that
imports the root and trains (so every module is part of one program, and an edit
anywhere re-checks it). Measured, each from a fresh server process:

- first diagnostics: from `didOpen` of the 500-line module to its first
  `publishDiagnostics`, in a server that has read the workspace; and from the server's
  start (it reads and analyses the whole workspace on `initialized`), with a cold
  cache and with a warm one;
- after an edit (warm): from `didChange` of the 500-line module to its new
  diagnostics, each edit adding or removing an entropy-seeded generator (RPL102), so
  every edit changes what is shown; with the debounce off and with the default;
- memory: the server's resident set (VmRSS, VmHWM from /proc) with the 2,000-file
  workspace loaded and the module open, and the edit latency there.

Goals (issue 28): edit <= 150 ms warm (200 files), first diagnostics <= 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

BIG_LINES = 500


def make_project(root: Path, files: int) -> Path:
    """``files`` modules (``files - 2`` in ``pkg/``, its ``__init__``, ``train.py``);
    returns the 500-line module."""
    pkg = root / "pkg"
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text("")
    modules = files - 2
    for i in range(modules):
        lines = ["import torch", "import torch.nn as nn", ""]
        for child in (2 * i + 1, 2 * i + 2):
            if child < modules:
                lines.insert(0, f"from pkg import mod{child}")
        target = BIG_LINES if i == 0 else 60
        k = 0
        while len(lines) < target - 6:
            lines += [f"def helper_{k}(x):", f"    y = x * {k}", "    return y + 1", ""]
            k += 1
        lines += ["class Net(nn.Module):", "    def __init__(self):", "        super().__init__()",
                  "        self.fc = nn.Linear(4, 2)", ""]
        (pkg / f"mod{i}.py").write_text("\n".join(lines) + "\n")
    (root / "train.py").write_text(
        "import torch\nfrom pkg import mod0\n\n"
        "model = mod0.Net()\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "model.fc(torch.ones(4)).sum().backward()\nopt.step()\n"
    )
    return pkg / "mod0.py"


class Client:
    """A pygls client that notes when each document's diagnostics arrive."""

    def __init__(self) -> None:
        self.client = LanguageClient("lsp-latency-bench", "1")
        self.arrived: dict[str, asyncio.Event] = {}
        self.last: dict[str, list[types.Diagnostic]] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            self.last[params.uri] = list(params.diagnostics)
            self.arrived.setdefault(params.uri, asyncio.Event()).set()

        @self.client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(params: types.RegistrationParams) -> None:
            return None

        @self.client.feature(types.WINDOW_LOG_MESSAGE)
        def log(params: types.LogMessageParams) -> None:
            if params.type == types.MessageType.Error:
                sys.stderr.write(params.message + "\n")

    def expect(self, uri: str) -> asyncio.Event:
        event = self.arrived[uri] = asyncio.Event()
        return event

    async def start(self, root: Path, debounce_ms: Optional[float]) -> None:
        command = [sys.executable, "-m", "reprolint", "server"]
        await self.client.start_io(*command, cwd=str(root))
        options: dict[str, Any] = {} if debounce_ms is None else {"debounce": debounce_ms}
        await self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            process_id=os.getpid(),
            workspace_folders=[types.WorkspaceFolder(uri=from_fs_path(str(root)), name="bench")],
            initialization_options=options,
        ))
        self.client.initialized(types.InitializedParams())

    @property
    def pid(self) -> int:
        return self.client._server.pid  # type: ignore[union-attr]

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


def _memory(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process in MiB."""
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0]) / 1024
    return values.get("VmRSS", 0.0), values.get("VmHWM", 0.0)


async def session(root: Path, module: Path, edits: int, debounce_ms: Optional[float]) -> dict[str, Any]:
    """One server: first diagnostics, then ``edits`` timed edits, then its memory."""
    client = Client()
    uri = from_fs_path(str(module))
    text = module.read_text()
    started = time.perf_counter()
    await client.start(root, debounce_ms)
    # Messages are handled in order: the answer to this request comes once the server
    # has read the workspace (which it does on `initialized`).
    await client.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=0),
    ))
    loaded_s = time.perf_counter() - started
    first = client.expect(uri)
    opened = time.perf_counter()
    client.client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
    ))
    await asyncio.wait_for(first.wait(), 600)
    open_s = time.perf_counter() - opened
    first_s = time.perf_counter() - started
    times = []
    extra = "import numpy as np\nrng = np.random.default_rng()\n"
    for version in range(2, edits + 2):
        new = text + extra if version % 2 == 0 else text
        event = client.expect(uri)
        sent = time.perf_counter()
        client.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=new)],
        ))
        await asyncio.wait_for(event.wait(), 120)
        times.append(time.perf_counter() - sent)
        codes = {d.code for d in client.last[uri]}
        assert ("RPL102" in codes) == (version % 2 == 0), codes  # the edit was seen
    rss, hwm = _memory(client.pid)
    await client.stop()
    return {"first": first_s, "loaded": loaded_s, "open": open_s, "edits": times, "rss": rss, "hwm": hwm}


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    if len(values) < 4:
        return ", ".join(f"{v * 1000:.0f} ms" for v in values)
    return f"median {statistics.median(values) * 1000:.0f} ms, p90 {p90 * 1000:.0f} ms, max {max(values) * 1000:.0f} ms"


async def main_async(args: argparse.Namespace) -> str:
    import shutil

    out = [
        "reprolint server latency (bench/lsp_latency.py)",
        f"python {platform.python_version()}, {os.cpu_count()} cores, load average "
        + " ".join(f"{x:.1f}" for x in os.getloadavg()),
        "",
    ]
    with tempfile.TemporaryDirectory(prefix="reprolint-lsp-bench-") as tmp:
        small = Path(tmp) / "p200"
        module = make_project(small, 200)
        cold = await session(small, module, args.edits, 0)
        warm = await session(small, module, args.edits, 0)
        default = await session(small, module, args.edits, None)
        out += [
            "200-file project (one 500-line module, every module in one program):",
            f"  first diagnostics after opening the module (workspace read): {_ms([cold['open'], warm['open'], default['open']])} (goal <= 1 s)",
            f"  from server start (start, read the workspace, open): cold cache {cold['first'] * 1000:.0f} ms "
            f"(workspace read after {cold['loaded'] * 1000:.0f} ms), warm cache {warm['first'] * 1000:.0f} ms",
            f"  after an edit, debounce off:    {_ms(cold['edits'] + warm['edits'])} ({2 * args.edits} edits; goal <= 150 ms)",
            f"  after an edit, default debounce (50 ms): {_ms(default['edits'])}",
            f"  memory: VmRSS {warm['rss']:.0f} MiB, VmHWM {warm['hwm']:.0f} MiB",
            "",
        ]
        shutil.rmtree(small)
        big = Path(tmp) / "p2000"
        module = make_project(big, args.big_files)
        first = await session(big, module, args.edits, 0)
        again = await session(big, module, args.edits, 0)
        out += [
            f"{args.big_files}-file workspace:",
            f"  first diagnostics after opening the module (workspace read): {_ms([first['open'], again['open']])}",
            f"  from server start: cold cache {first['first'] * 1000:.0f} ms, warm cache {again['first'] * 1000:.0f} ms",
            f"  after an edit, debounce off:    {_ms(first['edits'] + again['edits'])}",
            f"  memory: VmRSS {again['rss']:.0f} MiB, VmHWM {again['hwm']:.0f} MiB (workspace loaded, module open)",
        ]
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=20, help="timed edits per server (default 20)")
    parser.add_argument("--big-files", type=int, default=2000, help="files of the large workspace")
    parser.add_argument("--save", metavar="FILE", help="also write the report to FILE")
    args = parser.parse_args()
    report = asyncio.run(main_async(args))
    sys.stdout.write(report)
    if args.save:
        Path(args.save).write_text(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
