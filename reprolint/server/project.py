"""One project as the server keeps it: settings, every file's analysis, the open buffers.

A :class:`Project` is a workspace folder (or, for a file outside every folder, that
file's own folder holding just the open files). It reads its configuration as the
command line does (the nearest ``reprolint.toml`` or ``pyproject.toml`` with
``[tool.reprolint]``, from the folder upwards), finds its files as ``reprolint check
FOLDER`` does, and analyses them once through the same per-file pass and on-disk
cache. After that, a change costs the changed file's parse and one program-level check
of the whole project (:func:`reprolint.api.check_analyses`): the programs that reach
the file are re-simulated, every other file's facts come from memory.
"""

from __future__ import annotations

import dataclasses
import io
import os
import tokenize
from pathlib import Path
from typing import Any, Callable, Optional, Union

from reprolint.api import FileAnalysis, ProgramCheck, analyse_bytes, check_analyses
from reprolint.config import ConfigError, Settings
from reprolint.model import Diagnostic

__all__ = ["Project", "normal_path"]

Content = Union[str, bytes]  # a module's text, or a notebook's JSON


def normal_path(path: str) -> str:
    """The one spelling of a path the server uses as a key (absolute, posix)."""
    return Path(os.path.abspath(path)).as_posix()


def _known_codes() -> list[str]:
    from reprolint.checks.registry import all_rules

    return [r.code for r in all_rules()]


def _encoded(text: str) -> bytes:
    """A buffer's text as the bytes the file would hold: in its declared encoding (PEP
    263 cookie), so that decoding it gives the text back."""
    data = text.encode("utf-8", "surrogatepass")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        return data  # a bad cookie: the analysis reports it (RPL900), as for the file
    if encoding in ("utf-8", "utf-8-sig"):
        return data
    try:
        return text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return data


@dataclasses.dataclass(frozen=True)
class _FindingsOf(Settings):
    """Settings that keep only one file's findings (what "fix all in this file" fixes);
    every rule still runs, so the programs are the same."""

    only: str = ""

    def is_enabled(self, code: str, path: Optional[str] = None) -> bool:
        if path is not None and path != self.only:
            return False
        return super().is_enabled(code, path)


class Project:
    """A folder's configuration, analyses and last check (see the module docstring)."""

    def __init__(self, root: str, *, discover_files: bool = True,
                 log: Callable[[str], None] = lambda message: None) -> None:
        self.root = normal_path(root)
        self.discover_files = discover_files
        self.log = log
        self.settings: Settings = Settings(root=self.root)
        self.config_error: Optional[str] = None
        self.analyses: dict[str, FileAnalysis] = {}
        self.buffers: dict[str, Content] = {}
        self.check: Optional[ProgramCheck] = None
        self.results: dict[str, list[Diagnostic]] = {}
        self._with_fixes: dict[str, list[Diagnostic]] = {}
        self.loaded = False

    # ------------------------------------------------------------------ membership
    def contains(self, path: str) -> bool:
        return path == self.root or path.startswith(self.root.rstrip("/") + "/")

    def excluded(self, path: str) -> bool:
        """Whether ``check FOLDER`` would skip the file: it or a folder on the way is excluded."""
        here = Path(path)
        for part in (here, *here.parents):
            if len(part.as_posix()) < len(self.root) or part.as_posix() == self.root:
                break
            if self.settings.is_excluded(part.as_posix()):
                return True
        return False

    # ----------------------------------------------------------------- loading
    def load(self) -> None:
        """Read the configuration and analyse every file (again, after it changed)."""
        from reprolint.config import find_config, load_settings

        self.loaded = True
        self.check = None
        self.results = {}
        self._with_fixes = {}
        try:
            config = find_config(Path(self.root))
            # Without a configuration file the CLI's root is its working directory;
            # an editor's is the workspace folder.
            self.settings = load_settings(config, _known_codes()) if config else Settings(root=self.root)
            self.config_error = None
        except ConfigError as exc:
            self.config_error = str(exc)
            self.analyses = {}
            return
        files: list[str] = []
        if self.discover_files:
            from reprolint.discovery import discover

            files = [normal_path(f) for f in discover([self.root], self.settings, self.log)]
        self.analyses = dict(zip(files, self._analyse_disk(files)))
        for path, content in list(self.buffers.items()):
            self.set_buffer(path, content)

    def _analyse_disk(self, files: list[str]) -> list[FileAnalysis]:
        from reprolint.pipeline import analyse_all

        if not files:
            return []
        try:
            return analyse_all(files, self.settings, jobs=None if len(files) > 8 else 1, cache=True)
        except Exception as exc:  # noqa: BLE001 - a cache folder we may not use (CacheDirError)
            self.log(f"cache not used ({type(exc).__name__}: {exc})")
            return analyse_all(files, self.settings, jobs=None if len(files) > 8 else 1, cache=False)

    # ------------------------------------------------------------------ changes
    def set_buffer(self, path: str, content: Content) -> None:
        """An open editor buffer: analysed as it is, saved or not."""
        self.buffers[path] = content
        if self.config_error is not None or self.excluded(path):
            self.analyses.pop(path, None)
            return
        data = content if isinstance(content, bytes) else _encoded(content)
        self.analyses[path] = analyse_bytes(path, data)

    def drop_buffer(self, path: str) -> None:
        """A buffer closed: the file is what is on disk again (or gone)."""
        self.buffers.pop(path, None)
        self.disk_changed(path)

    def disk_changed(self, path: str) -> None:
        """A file changed, appeared or went away on disk (an open buffer still wins)."""
        if path in self.buffers or self.config_error is not None:
            return
        if not self.discover_files or not os.path.isfile(path) or self.excluded(path):
            self.analyses.pop(path, None)
            return
        self.analyses[path] = self._analyse_disk([path])[0]

    # ------------------------------------------------------------------ checking
    def recheck(self) -> dict[str, list[Diagnostic]]:
        """Check the project's programs again; path -> findings (no fix edits).

        Raises what the analysis raises (a bug in reprolint): the caller logs it and
        keeps showing the last results.
        """
        self._with_fixes = {}
        if self.config_error is not None:
            self.check, self.results = None, {}
            return {}
        analyses = list(self.analyses.values())
        check = check_analyses(analyses, self.settings, [self.root])
        results: dict[str, list[Diagnostic]] = {}
        for d in check.finish(fix_edits=False):
            results.setdefault(d.path, []).append(d)
        self.check, self.results = check, results
        return results

    def with_fixes(self, path: str) -> list[Diagnostic]:
        """The file's findings with their fix edits (planned once per check)."""
        if path not in self._with_fixes:
            if self.check is None:
                return []
            mine = [d for d in self.check.diagnostics if d.path == path]
            self._with_fixes[path] = self.check.finish(mine, fix_edits=True)
        return self._with_fixes[path]

    def text_of(self, path: str) -> Optional[str]:
        """A module's text as analysed (the buffer's, else the file's)."""
        analysis = self.analyses.get(path)
        if analysis is not None and analysis.source is not None and analysis.cells is None:
            return analysis.source
        return None

    def fix_all(self, path: str, unsafe: bool) -> dict[str, str]:
        """path -> new text of each file that fixing ``path``'s findings changes, as
        ``reprolint fix`` fixes them (to convergence; unsafe ones only when asked)."""
        from reprolint.fixing import fix_texts

        texts: dict[str, str] = {}
        analysed: dict[str, Any] = {}
        for other, analysis in self.analyses.items():
            if analysis.source is None:
                continue
            texts[other] = analysis.source
            analysed[other] = analysis
        if path not in texts:
            return {}
        settings = _FindingsOf(**dataclasses.asdict(self.settings), only=path)
        new, *_ = fix_texts(texts, settings, [self.root], unsafe, analysed=analysed)
        # A notebook's text here is its joined program; `fix` maps edits back to cells,
        # a whole-file edit cannot: notebooks are left to `reprolint fix`.
        return {p: t for p, t in new.items() if t != texts[p] and not p.endswith(".ipynb")}
