"""`reprolint server`: a Language Server over the check and fix API.

Needs the ``lsp`` extra (``pip install "reprolint[lsp]"``: pygls and lsprotocol), which
only this command imports. The modules: :mod:`.handlers` (the LSP messages answered),
:mod:`.session` (open documents, publishing, debouncing), :mod:`.project` (one
workspace folder's settings and analyses), :mod:`.actions` (quick fixes, fix all,
``# noqa``, hovers), :mod:`.convert` (reprolint's data as LSP types) and
:mod:`.notebook_docs` (LSP notebook documents as ``.ipynb`` JSON).
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

__all__ = ["main"]

MISSING = (
    "reprolint: error: `reprolint server` needs pygls and lsprotocol: "
    "pip install \"reprolint[lsp]\"\n"
)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``reprolint server [--debounce MS]``: serve LSP over stdin/stdout until ``exit``."""
    parser = argparse.ArgumentParser(
        prog="reprolint server",
        description="Language Server (LSP over stdio): reprolint's findings and fixes in the editor.",
    )
    parser.add_argument(
        "--debounce", type=float, default=None, metavar="MS",
        help="milliseconds without typing before a buffer is checked again (default 50)",
    )
    parser.add_argument("--stdio", action="store_true", help="accepted for editors that pass it (stdio is the only transport)")
    args = parser.parse_args(list(argv or []))
    try:
        from reprolint.server.handlers import DEFAULT_DEBOUNCE, make_server
    except ImportError as exc:
        if getattr(exc, "name", "") and exc.name.split(".")[0] in ("pygls", "lsprotocol", "cattrs"):
            sys.stderr.write(MISSING)
            return 2
        raise
    debounce = DEFAULT_DEBOUNCE if args.debounce is None else max(args.debounce, 0.0) / 1000
    make_server(debounce).start_io()
    return 0
