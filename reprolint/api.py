"""The pure API: check paths or source text and return diagnostics. Never prints."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Iterable, Mapping, Optional, Union

import libcst as cst

from reprolint.analysis.facts import ModuleFacts, collect_facts
from reprolint.analysis.program import ProgramIndex, analyse_programs
from reprolint.checks.base import CheckContext, Finding, all_rules
from reprolint.config import Settings
from reprolint.discovery import discover
from reprolint.model import Diagnostic, Severity, Span

__all__ = [
    "MAX_FILE_BYTES",
    "CheckResult",
    "FileAnalysis",
    "analyse_source",
    "check_paths",
    "check_source",
    "check_sources",
    "decode_source",
    "fix_paths",
    "fix_source",
]

# Files above this size are reported (RPL900) and skipped: generated tables of literals
# cost libcst seconds and hundreds of MB while holding no training code.
MAX_FILE_BYTES = 1_000_000

ALL_CODES = "*"

_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.I)
_IGNORE = re.compile(r"#\s*reprolint:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.I)


class SourceError(ValueError):
    """A file that cannot be decoded or parsed; the message is the user-facing reason."""

    def __init__(self, reason: str, line: int = 1, column: int = 1) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.column = column


@dataclass
class FileAnalysis:
    """What one file contributes: its facts, or the reason it could not be read."""

    path: str
    facts: Optional[ModuleFacts] = None
    error: Optional[SourceError] = None
    suppressions: dict[int, frozenset[str]] = field(default_factory=dict)
    # Notebooks: program line -> code cell (a reprolint.notebooks.CellMap).
    cells: Optional[Any] = None
    source: Optional[str] = None  # the parsed text, for planning fixes


@dataclass
class CheckResult:
    diagnostics: list[Diagnostic]
    files_checked: int


def decode_source(data: bytes) -> str:
    """Decode Python source bytes as the interpreter would (BOM, PEP 263 cookie)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise SourceError(f"bad encoding declaration: {exc}") from exc
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        line = data[: getattr(exc, "start", 0)].count(b"\n") + 1
        raise SourceError(f"cannot decode as {encoding}: {exc}", line=line) from exc
    return text[1:] if text.startswith("\ufeff") else text


def _suppressions(source: str) -> dict[int, frozenset[str]]:
    if "noqa" not in source and "reprolint" not in source:
        return {}
    found: dict[int, frozenset[str]] = {}
    for number, line in enumerate(source.splitlines(), start=1):
        if "#" not in line:
            continue
        for pattern in (_NOQA, _IGNORE):
            match = pattern.search(line)
            if match is None:
                continue
            codes = match.group("codes")
            if codes is None or not codes.strip():
                found[number] = frozenset({ALL_CODES})
            else:
                parsed = {c.strip().upper() for c in re.split(r"[\s,]+", codes) if c.strip()}
                found[number] = found.get(number, frozenset()) | frozenset(parsed)
    return found


def _syntax_error(source: str, path: str, exc: cst.ParserSyntaxError) -> SourceError:
    """Prefer CPython's wording and location, which users know; fall back to libcst's."""
    try:
        compile(source, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as py:
        return SourceError(f"syntax error: {py.msg}", line=py.lineno or 1, column=py.offset or 1)
    except (ValueError, RecursionError, MemoryError):
        pass
    return SourceError(f"syntax error: {exc.message}", line=exc.raw_line, column=exc.raw_column + 1)


def analyse_source(source: str, path: str) -> FileAnalysis:
    """Parse one module and collect its facts; a parse failure becomes ``error``."""
    result = FileAnalysis(path, suppressions=_suppressions(source), source=source)
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError as exc:
        result.error = _syntax_error(source, path, exc)
        return result
    except (RecursionError, MemoryError) as exc:
        result.error = SourceError(f"too deeply nested to parse ({type(exc).__name__})")
        return result
    result.facts = collect_facts(module, path, source=source)
    return result


def analyse_file(path: str) -> FileAnalysis:
    """Read, decode and analyse one file, never raising for bad input."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        return FileAnalysis(path, error=SourceError(f"cannot read: {exc.strerror or exc}"))
    if path.endswith(".ipynb"):
        from reprolint.notebooks import analyse_notebook

        return analyse_notebook(path, data)
    if len(data) > MAX_FILE_BYTES:
        return FileAnalysis(
            path,
            error=SourceError(
                f"skipped: {len(data):,} bytes is over the {MAX_FILE_BYTES:,}-byte limit "
                "for one file (generated data, not training code?)"
            ),
        )
    try:
        source = decode_source(data)
    except SourceError as exc:
        return FileAnalysis(path, error=exc)
    if "\x00" in source:
        return FileAnalysis(path, error=SourceError("contains NUL bytes (not a text file?)"))
    return analyse_source(source, path)


def _roots(paths: Iterable[str]) -> list[str]:
    roots = []
    for raw in paths:
        p = PurePosixPath(Path(raw).as_posix())
        roots.append(str(p if Path(raw).is_dir() else p.parent))
    return roots


def _diagnostics(
    analyses: list[FileAnalysis], settings: Settings, roots: list[str]
) -> list[Diagnostic]:
    from reprolint.checks.parse import ParseError

    facts = {a.path: a.facts for a in analyses if a.facts is not None}
    index = ProgramIndex(facts, roots)
    configured = _configured_entries(facts, settings)
    programs = analyse_programs(index, index.entry_points(configured))
    ctx = CheckContext(facts=facts, index=index, programs=programs, settings=settings)
    rules = {rule.code: rule for rule in all_rules()}
    findings: list[Finding] = []
    for analysis in analyses:
        if analysis.error is not None:
            err = analysis.error
            span = Span(err.line, err.column, err.line, err.column)
            findings.append(
                Finding(ParseError.code, analysis.path, span, f"Failed to parse {analysis.path}: {err.reason}")
            )
    for code, rule in rules.items():
        if not rule.implemented or not settings.is_enabled(code):
            continue
        findings.extend(rule().check(ctx))
    suppressions = {a.path: a.suppressions for a in analyses}
    out = []
    for finding in findings:
        if not settings.is_enabled(finding.code, finding.path):
            continue
        marks = suppressions.get(finding.path, {})
        lines = {finding.span.start_line, finding.span.end_line}
        if any(ALL_CODES in marks.get(n, ()) or finding.code in marks.get(n, ()) for n in lines):
            continue
        rule = rules[finding.code]
        out.append(
            Diagnostic(
                code=finding.code,
                name=rule.name(),
                message=finding.message,
                path=finding.path,
                span=finding.span,
                severity=rule.severity if isinstance(rule.severity, Severity) else Severity.WARNING,
                fix=finding.fix,
            )
        )
    from reprolint.fixing import attach_fixes

    out = attach_fixes(out, ctx, {a.path: a.source for a in analyses if a.source is not None})
    cell_maps = {a.path: a.cells for a in analyses if a.cells is not None}
    if cell_maps:
        from reprolint.notebooks import map_to_cells

        out = [map_to_cells(d, cell_maps[d.path]) if d.path in cell_maps else d for d in out]
    out.sort(key=lambda d: d.sort_key)
    return out


def _configured_entries(facts: Mapping[str, ModuleFacts], settings: Settings) -> list[str]:
    if not settings.entry_points:
        return []
    root = Path(settings.root).resolve()
    wanted = {(root / e).resolve() for e in settings.entry_points}
    return [p for p in facts if Path(p).resolve() in wanted]


def check_paths(
    paths: Iterable[str],
    settings: Optional[Settings] = None,
    progress: Optional[Callable[[int, int], None]] = None,
) -> CheckResult:
    """Check files and folders; the paths in diagnostics are as given (relative stays relative).

    ``progress(done, total)``, when given, is called after each file is read and parsed.
    """
    settings = settings or Settings()
    paths = list(paths)
    files = list(discover(paths, settings))
    analyses = []
    for path in files:
        analyses.append(analyse_file(path))
        if progress is not None:
            progress(len(analyses), len(files))
    return CheckResult(_diagnostics(analyses, settings, _roots(paths)), len(files))


def check_sources(
    sources: Mapping[str, str], settings: Optional[Settings] = None, root: str = "."
) -> list[Diagnostic]:
    """Check in-memory files (path -> source) as one project rooted at ``root``."""
    settings = settings or Settings()
    analyses = [analyse_source(source, path) for path, source in sources.items()]
    return _diagnostics(analyses, settings, [root])


def check_source(
    source: Union[str, bytes], path: str = "<stdin>", settings: Optional[Settings] = None
) -> list[Diagnostic]:
    """Check one module's source as a program of its own."""
    if path.endswith(".ipynb"):
        from reprolint.notebooks import analyse_notebook

        data = source.encode("utf-8") if isinstance(source, str) else source
        return _diagnostics([analyse_notebook(path, data)], settings or Settings(), ["."])
    if isinstance(source, bytes):
        try:
            source = decode_source(source)
        except SourceError as exc:
            analysis = FileAnalysis(path, error=exc)
            return _diagnostics([analysis], settings or Settings(), ["."])
    return check_sources({path: source}, settings, str(PurePosixPath(path).parent))


def fix_source(
    source: str,
    path: str = "<stdin>",
    settings: Optional[Settings] = None,
    unsafe_fixes: Optional[bool] = None,
) -> str:
    """One module's source with its fixes applied (safe ones; unsafe too when asked)."""
    from reprolint.fixing import fix_texts

    settings = settings or Settings()
    unsafe = settings.unsafe_fixes if unsafe_fixes is None else unsafe_fixes
    texts, *_ = fix_texts({path: source}, settings, [str(PurePosixPath(path).parent)], unsafe)
    return texts[path]


def fix_paths(
    paths: Iterable[str], settings: Optional[Settings] = None, unsafe_fixes: Optional[bool] = None
) -> Any:
    """Compute the fixes for files and folders; returns a ``reprolint.fixing.FixReport``.

    Nothing is written: ``reprolint.fixing.write_change`` writes one file's change.
    """
    from reprolint.fixing import fix_files

    return fix_files(list(paths), settings or Settings(), unsafe_fixes)
