"""The per-file pass of a check: cache, pre-filter, and workers, in that order.

1. Every file is read and hashed; a cache hit is decoded and the file is done.
2. Misses are analysed (in worker processes when there are many): decoded, the data-file
   policy applied, the pre-filter asked, and — unless the pre-filter says the file
   cannot matter on its own — parsed by libcst and its facts collected. Each worker
   writes its own cache entries, so encoding runs in parallel too.
3. The pre-filter's cross-file test (:func:`reprolint.prefilter.select_stubs`) decides
   which unparsed files get a stub; the others are parsed now, like any miss.

Trees never leave a worker: only facts (plain dataclasses) come back, so memory is
bounded by the biggest file, not by the project. Results are in the order of ``files``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from reprolint.api import FileAnalysis, SourceError, analyse_bytes, decode_source
from reprolint.cache import CorruptEntry, FactsCache, encode
from reprolint.config import Settings
from reprolint.parallel import run_ordered

__all__ = ["analyse_all"]


def _payload(analysis: FileAnalysis) -> Optional[dict[str, Any]]:
    """The cacheable part of an analysis (None: do not cache it)."""
    if analysis.cells is not None or analysis.path.endswith(".ipynb"):
        return None  # notebooks: cell maps are not fact types (and notebooks are few)
    error = analysis.error
    if error is not None and error.reason.startswith("internal error"):
        return None  # a bug may be fixed by the next run: never remember it
    cold = analysis.cold
    return {
        "facts": encode(analysis.facts) if analysis.facts is not None else None,
        "error": [error.reason, error.line, error.column] if error is not None else None,
        "suppressions": [[line, sorted(codes)] for line, codes in analysis.suppressions.items()],
        "cold": [list(cold.imports), list(cold.uses)] if cold is not None and analysis.facts is None else None,
    }


def _from_payload(path: str, payload: dict[str, Any], data: bytes) -> FileAnalysis:
    from reprolint.analysis.facts import ModuleFacts
    from reprolint.prefilter import ColdFile

    facts = payload.get("facts")  # decoded by FactsCache.load
    if facts is not None and (not isinstance(facts, ModuleFacts) or facts.path != path):
        raise CorruptEntry("facts of another file")
    error = payload.get("error")
    if error is not None:
        reason, line, column = error
        if not (isinstance(reason, str) and isinstance(line, int) and isinstance(column, int)):
            raise CorruptEntry("bad error")
        error = SourceError(reason, line, column)
    suppressions = {}
    for line, codes in payload.get("suppressions") or ():
        if not isinstance(line, int) or not all(isinstance(c, str) for c in codes):
            raise CorruptEntry("bad suppressions")
        suppressions[line] = frozenset(codes)
    cold = payload.get("cold")
    if cold is not None:
        imports, uses = cold
        cold = ColdFile(tuple(str(i) for i in imports), tuple(str(u) for u in uses))
    if facts is None and error is None and cold is None:
        raise CorruptEntry("empty entry")
    source = None
    if error is None:
        try:
            source = decode_source(data)  # fixes are planned on the text (never cached)
        except SourceError:
            source = None
    return FileAnalysis(path, facts=facts, error=error, suppressions=suppressions, source=source, cold=cold)


def _task(job: tuple[str, Optional[FactsCache], bool]) -> tuple[FileAnalysis, str]:
    """One file, in a worker or in-process: read once, analyse and key those bytes.

    Returns the analysis and the cache key of the bytes it was made from ("" when the
    file could not be read or there is no cache), so a whole-run entry is stored under
    what was analysed, not under an earlier read of the file.
    """
    path, cache, cold_check = job
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        return FileAnalysis(path, error=SourceError(f"cannot read: {exc.strerror or exc}")), ""
    analysis = analyse_bytes(path, data, cold_check=cold_check)
    key = ""
    if cache is not None:
        key = cache.key(path, data)
        payload = _payload(analysis)
        if payload is not None:
            cache.store(key, payload)
    return analysis, key


def _prime_prefilter(store: Optional[FactsCache]) -> None:
    # Derived once, before the workers fork, and kept in the cache (the salt covers the
    # code and catalogs it is derived from).
    from reprolint import prefilter

    stored = store.load_aux("trigger-words") if store is not None else None
    if (
        isinstance(stored, list) and len(stored) == 2
        and all(isinstance(part, list) and all(isinstance(w, str) for w in part) for part in stored)
    ):
        prefilter.use_words(stored[0], stored[1])
        return
    words = [list(prefilter.trigger_words()), list(prefilter.prefix_words())]
    if store is not None:
        store.store_aux("trigger-words", words)


def analyse_all(
    files: Sequence[str],
    settings: Settings,
    *,
    progress: Optional[Callable[[int, int], None]] = None,
    jobs: Optional[int] = None,
    cache: bool = True,
    prefilter: bool = True,
    configured_entries: Sequence[str] = (),
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
                data = Path(path).read_bytes()
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
        if hit is not None and (hit.cold is None or prefilter):
            results[index] = hit
            tick()
        else:
            misses.append(index)

    def arrived(i: int, done_task: tuple[FileAnalysis, str]) -> None:
        analysis, key = done_task
        results[misses_now[i]] = analysis
        keys[analysis.path] = key
        tick()

    if misses and prefilter:
        _prime_prefilter(store)
    misses_now = misses
    run_ordered(_task, [(files[i], store, prefilter) for i in misses_now], jobs, arrived)

    cold = {a.path: a.cold for a in results if a is not None and a.cold is not None and a.facts is None}
    if cold:
        from reprolint.prefilter import select_stubs, stub_facts

        imports = {a.path: a.facts.imported_modules for a in results if a is not None and a.facts is not None}
        stubs = select_stubs(cold, imports, files, configured_entries)
        second: list[int] = []
        for index, analysis in enumerate(results):
            if analysis is None or analysis.path not in cold:
                continue
            if analysis.path in stubs:
                analysis.facts = stub_facts(analysis.path, analysis.cold)
            else:
                second.append(index)
        if second:
            done -= len(second)  # counted again when parsed
            misses_now = second
            run_ordered(_task, [(files[i], store, False) for i in second], jobs, arrived)
    return [a for a in results if a is not None]
