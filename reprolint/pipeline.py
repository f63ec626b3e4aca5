"""The per-file pass of a check: cache, then workers.

1. Every file is read and hashed; a cache hit is decoded and the file is done.
2. Misses are analysed (in worker processes when there are many): read once, keyed,
   decoded, the data-file policy applied, parsed by libcst and its facts collected.
   Each worker writes its own cache entries, so encoding runs in parallel too.

(0.1 had a pre-filter that skipped parsing files without any name the analysis reacts
to; on torch's nn/optim/utils/data and on corpus/ it skipped no file, so it was removed.)

Trees never leave a worker: only facts (plain dataclasses) come back, so memory is
bounded by the biggest file, not by the project. Results are in the order of ``files``.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Optional, Sequence

from reprolint._gc import cycle_collection_paused
from reprolint.api import FileAnalysis, SourceError, analyse_bytes, analyse_source, decode_source
from reprolint.cache import FactsCache
from reprolint.cache_codec import MAX_POSITION, CorruptEntry, encode
from reprolint.config import Settings
from reprolint.discovery import read_regular
from reprolint.parallel import Crash, run_ordered

__all__ = ["analyse_all"]


def _payload(analysis: FileAnalysis) -> Optional[dict[str, Any]]:
    """The cacheable part of an analysis (None: do not cache it)."""
    if analysis.cells is not None or analysis.path.endswith(".ipynb"):
        return None  # notebooks: cell maps are not fact types (and notebooks are few)
    if analysis.skipped is not None:
        return None  # a data file: deciding again is cheap, and the summary must name it
    error = analysis.error
    if error is not None and error.reason.startswith("internal error"):
        return None  # a bug may be fixed by the next run: never remember it
    return {
        "facts": encode(analysis.facts) if analysis.facts is not None else None,
        "error": [error.reason, error.line, error.column] if error is not None else None,
        "suppressions": [[line, sorted(codes)] for line, codes in analysis.suppressions.items()],
        "old_syntax": analysis.old_syntax,
    }


def _position(value: Any) -> bool:
    return type(value) is int and 0 <= value <= MAX_POSITION


def _from_payload(path: str, payload: dict[str, Any], data: bytes) -> FileAnalysis:
    from reprolint.analysis.facts import ModuleFacts

    facts = payload.get("facts")  # decoded by FactsCache.load
    if facts is not None and (not isinstance(facts, ModuleFacts) or facts.path != path):
        raise CorruptEntry("facts of another file")
    error = payload.get("error")
    if error is not None:
        if not (isinstance(error, list) and len(error) == 3):
            raise CorruptEntry("bad error")
        reason, line, column = error
        if not (isinstance(reason, str) and _position(line) and _position(column)):
            raise CorruptEntry("bad error")
        error = SourceError(reason, line, column)
    suppressions = {}
    for item in payload.get("suppressions") or ():
        if not (isinstance(item, list) and len(item) == 2):
            raise CorruptEntry("bad suppressions")
        line, codes = item
        if not _position(line) or not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
            raise CorruptEntry("bad suppressions")
        suppressions[line] = frozenset(codes)
    if facts is None and error is None:
        raise CorruptEntry("empty entry")
    old_syntax = payload.get("old_syntax")
    if old_syntax is not None and not isinstance(old_syntax, str):
        raise CorruptEntry("bad old_syntax")
    source = None
    if error is None and old_syntax is None:  # Python 2 text and the like: no fix is planned on it
        try:
            source = decode_source(data)  # fixes are planned on the text (never cached)
        except SourceError:
            source = None
    return FileAnalysis(path, facts=facts, error=error, suppressions=suppressions, source=source, old_syntax=old_syntax)


def _task(job: tuple[str, Optional[FactsCache]]) -> tuple[FileAnalysis, str]:
    """One file, in a worker or in-process: read once, analyse and key those bytes.

    Returns the analysis and the cache key of the bytes it was made from ("" when the
    file could not be read or there is no cache), so a whole-run entry is stored under
    what was analysed, not under an earlier read of the file.
    """
    path, cache = job
    try:
        data = read_regular(path)
    except OSError as exc:
        return FileAnalysis(path, error=SourceError(f"cannot read: {exc.strerror or exc}")), ""
    with cycle_collection_paused():  # already paused in-process; a spawned worker is not
        analysis = analyse_bytes(path, data)
    key = ""
    if cache is not None:
        key = cache.key(path, data)
        payload = _payload(analysis)
        if payload is not None:
            cache.store(key, payload)
    return analysis, key


# A file whose parse takes longer than this (seconds) is given up and reported as
# RPL900: libcst is quadratic on some shapes (an 8,000-term `a + a + ...` takes minutes,
# then crashes). Ordinary files take well under a second; REPROLINT_FILE_TIMEOUT
# overrides it.
FILE_TIMEOUT = 120.0


def _file_timeout() -> float:
    try:
        return max(0.1, float(os.environ.get("REPROLINT_FILE_TIMEOUT", FILE_TIMEOUT)))
    except ValueError:
        return FILE_TIMEOUT


def _warm_up() -> None:
    """Import libcst and load the catalogs once, before workers are forked: each worker
    would otherwise do it again (0.1-0.15 s of CPU apiece)."""
    analyse_source("import os\n", "<warm-up>")


def _crashed(job: tuple[str, Optional[FactsCache]], why: Crash) -> tuple[FileAnalysis, str]:
    """:func:`_task`'s result for a file whose worker died or ran out of time on it
    (no cache key: nothing is stored, the next run tries again)."""
    return FileAnalysis(job[0], error=SourceError(f"not analysed: {why}")), ""


def analyse_all(
    files: Sequence[str],
    settings: Settings,
    *,
    progress: Optional[Callable[[int, int], None]] = None,
    jobs: Optional[int] = None,
    cache: bool = True,
    keys: Optional[dict[str, str]] = None,
) -> list[FileAnalysis]:
    """A :class:`FileAnalysis` for each file, in order (see the module docstring).

    ``keys``, when given (and the cache is on), receives path -> the cache key of the
    bytes each analysis was made from ("" for a file that could not be read).
    """
    store = FactsCache.for_settings(settings) if cache else None
    keys = {} if keys is None else keys
    results: list[Optional[FileAnalysis]] = [None] * len(files)
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, len(files))

    misses: list[int] = []
    for index, path in enumerate(files):
        hit = None
        if store is not None:
            try:
                data = read_regular(path)
            except OSError:
                data = None
            if data is not None:
                key = store.key(path, data)
                keys[path] = key
                payload = store.load(key)
                if payload is not None:
                    try:
                        hit = _from_payload(path, payload, data)
                    except (CorruptEntry, TypeError, ValueError):
                        store.discard(key)
                        hit = None
        if hit is not None:
            results[index] = hit
            tick()
        else:
            misses.append(index)

    def arrived(i: int, done_task: tuple[FileAnalysis, str]) -> None:
        analysis, key = done_task
        results[misses_now[i]] = analysis
        keys[analysis.path] = key
        tick()

    misses_now = misses
    run_ordered(_task, [(files[i], store) for i in misses_now], jobs, arrived,
                on_crash=_crashed, timeout=_file_timeout(), warm_up=_warm_up)

    return [a for a in results if a is not None]
