"""Whole-run reuse: when nothing changed, the previous run's diagnostics, as they were.

The key hashes every input of a check's diagnostics — each file's per-file cache key
(path and content), the full settings, the scan roots, reprolint's code and catalogs,
and the installed torch/TensorFlow (version-aware rules) — so any change is a miss and
the run goes through the per-file cache instead. This module imports only what a hit
needs (configuration, discovery, the cache, the result types): a warm run never loads
the analysis code, the rules or libcst.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any, Iterable, Optional

from reprolint.cache import FactsCache, run_key
from reprolint.config import Settings
from reprolint.discovery import discover

__all__ = ["RunLookup", "lookup", "scan_roots"]


def scan_roots(paths: Iterable[str]) -> list[str]:
    """The folders imports resolve up to: each folder given, or a given file's folder."""
    roots = []
    for raw in paths:
        p = PurePosixPath(Path(raw).as_posix())
        roots.append(str(p if Path(raw).is_dir() else p.parent))
    return roots


class RunLookup:
    """A run's files, its key, and the diagnostics of an identical earlier run (if any)."""

    def __init__(self, files: list[str], store: FactsCache, key: str, hit: Optional[list[Any]]) -> None:
        self.files = files
        self.store = store
        self.key = key
        self.hit = hit

    def remember(self, diagnostics: list[Any]) -> None:
        self.store.store_run(self.key, diagnostics)


def lookup(paths: list[str], settings: Settings, files: Optional[list[str]] = None) -> RunLookup:
    """Discover the files and look the whole run up (reads and hashes every file)."""
    from reprolint.model import Diagnostic

    files = list(discover(paths, settings)) if files is None else files
    store = FactsCache.for_settings(settings)
    keys = []
    for path in files:
        try:
            keys.append((path, store.key(path, Path(path).read_bytes())))
        except OSError:
            keys.append((path, ""))
    key = run_key(store.salt, settings, scan_roots(paths), keys)
    hit = store.load_run(key)
    if hit is not None and not all(isinstance(d, Diagnostic) for d in hit):
        hit = None
    return RunLookup(files, store, key, hit)
