"""Whole-run reuse: when nothing changed, the previous run's diagnostics, as they were.

The key hashes every input of a check's diagnostics — each file's per-file cache key
(path and content), the full settings, the scan roots, reprolint's code and catalogs,
and the installed torch/TensorFlow (version-aware rules) — so any change is a miss and
the run goes through the per-file cache instead. This module imports only what a hit
needs (configuration, discovery, the cache, the result types): a warm run never loads
the analysis code, the rules or libcst.

A stored run is authenticated by the cache (:mod:`reprolint.cache`) and then checked
against this run before anything of it reaches output: every path it names must be a
file this run discovered, every line must lie inside that file as read now, and every
code must look like a rule code. A run that fails any check is treated as absent.

A run is stored only under the key of the bytes its findings were computed from
(:func:`reprolint.pipeline.analyse_all` reports the key of what it analysed), never
under the key of an earlier read: a file saved by an editor during a run cannot leave
new findings stored under the old content's key.
"""

from __future__ import annotations

import os

import re
from pathlib import Path, PurePosixPath
from typing import Any, Iterable, Mapping, Optional

from reprolint.cache import FactsCache, run_key
from reprolint.cache_codec import MAX_POSITION
from reprolint.config import Settings
from reprolint.discovery import discover

__all__ = ["RunLookup", "fits_run", "lookup", "run_key_for", "scan_roots"]

_CODE = re.compile(r"RPL[0-9]{3}")


def scan_roots(paths: Iterable[str]) -> list[str]:
    """The folders imports resolve up to: each folder given, or a given file's folder.

    Overlapping or repeated paths give the roots of their union: a folder inside another
    given folder is no root of its own (``check . sub/`` resolves ``sub``'s imports up to
    ``.``, as ``check .`` does), and a folder named twice counts once.
    """
    roots: list[str] = []
    for raw in paths:
        p = PurePosixPath(Path(raw).as_posix())
        roots.append(str(p if _is_dir(raw) else p.parent))
    real = {r: _real(r) for r in roots}
    kept: list[str] = []
    for root in roots:
        mine = real[root]
        if any(real[k] == mine for k in kept):
            continue  # the same folder named again
        if any(other != mine and _inside(mine, other) for other in real.values()):
            continue  # inside another root: the outer one's search covers it
        kept.append(root)
    return kept


def _real(root: str) -> str:
    try:
        return os.path.realpath(root)
    except (OSError, ValueError):
        return root


def _inside(path: str, folder: str) -> bool:
    return path.startswith(folder.rstrip(os.sep) + os.sep)


def _is_dir(raw: str) -> bool:
    """Whether ``raw`` is a folder; a path that cannot be looked at (a folder on the way
    without search permission, a name too long) is not one. Discovery reports it."""
    try:
        return Path(raw).is_dir()
    except (OSError, ValueError):
        return False


class RunLookup:
    """A run's files, its key, and the diagnostics of an identical earlier run (if any).

    ``file_keys``: each file's per-file cache key, of the bytes this lookup read.
    """

    def __init__(
        self, files: list[str], store: FactsCache, key: str, hit: Optional[list[Any]],
        file_keys: Optional[list[tuple[str, str]]] = None, roots: Optional[list[str]] = None,
        settings: Optional[Settings] = None, hit_tests: int = 0,
    ) -> None:
        self.files = files
        self.hit_tests = hit_tests  # modules the stored run left out as tests
        self.store = store
        self.key = key
        self.hit = hit
        self.file_keys = file_keys or []
        self.roots = roots or []
        self.settings = settings

    def remember(
        self, diagnostics: list[Any], analysed_keys: Optional[Mapping[str, str]] = None,
        tests_left_out: int = 0,
    ) -> None:
        """Store a run's diagnostics under the key of the bytes they were computed from.

        ``analysed_keys``: path -> per-file key of what the analysis read. Without it
        (or for a file it lacks) the lookup's own read is assumed, which is right only
        when the analysis was given those same bytes.
        """
        key = self.key
        if analysed_keys is not None and self.settings is not None:
            keys = [(path, analysed_keys.get(path, old)) for path, old in self.file_keys]
            key = run_key_for(self.store, self.settings, self.roots, keys)
        self.store.store_run(key, diagnostics, tests_left_out)


def run_key_for(store: FactsCache, settings: Settings, roots: list[str], file_keys: list[tuple[str, str]]) -> str:
    """The whole-run key of these files' keys under this configuration."""
    return run_key(store.salt, settings, roots, file_keys)


def fits_run(diagnostics: list[Any], lines: Mapping[str, int]) -> bool:
    """Whether stored diagnostics can belong to this run: each path one of its files
    (``lines``: path -> number of lines as read now), each span inside that file, each
    code a rule code. Types were checked when the entry was decoded."""
    from reprolint.model import Diagnostic, Span

    def span_fits(span: Any, limit: int) -> bool:
        return (
            isinstance(span, Span)
            and 1 <= span.start_line <= span.end_line <= limit
            and 0 <= span.start_col <= MAX_POSITION and 0 <= span.end_col <= MAX_POSITION
        )

    for d in diagnostics:
        if not isinstance(d, Diagnostic) or not _CODE.fullmatch(d.code):
            return False
        limit = lines.get(d.path)
        if limit is None:
            return False
        if d.cell is None and not span_fits(d.span, limit):
            return False
        if d.cell is not None and not (1 <= d.cell <= limit and span_fits(d.span, limit)):
            return False  # notebook lines are cell-relative: bounded by the whole file
        if d.fix is not None and not all(span_fits(e.span, limit + 1) for e in d.fix.edits):
            return False  # an edit may insert after the last line
        for related in getattr(d, "related", ()) or ():
            other = lines.get(getattr(related, "path", None))  # type: ignore[arg-type]
            if other is None or not span_fits(getattr(related, "span", None), other):
                return False
    return True


def _line_count(data: bytes) -> int:
    """An upper bound of the lines a finding in this file may name: every line break,
    and every escaped one (a notebook's cells are JSON strings), plus the line after
    the last."""
    return data.count(b"\n") + data.count(b"\r") + data.count(b"\\n") + 2


def lookup(paths: list[str], settings: Settings, files: Optional[list[str]] = None) -> RunLookup:
    """Discover the files and look the whole run up (reads and hashes every file)."""
    files = list(discover(paths, settings)) if files is None else files
    store = FactsCache.for_settings(settings)
    keys = []
    lines: dict[str, int] = {}
    for path in files:
        try:
            data = Path(path).read_bytes()
        except OSError:
            keys.append((path, ""))
            lines[path] = 1
            continue
        keys.append((path, store.key(path, data)))
        lines[path] = _line_count(data)
    roots = scan_roots(paths)
    key = run_key_for(store, settings, roots, keys)
    entry = store.load_run_entry(key)
    hit, tests = entry if entry is not None else (None, 0)
    if hit is not None and not fits_run(hit, lines):
        hit = None
    return RunLookup(files, store, key, hit, keys, roots, settings, tests)
