"""The pure API: check paths or source text and return diagnostics. Never prints."""

from __future__ import annotations

import ast
import contextlib
import io
import re
import sys
import tokenize
import warnings
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional, Sequence, Union

# A plain import: a library caller gets the real libcst. Only the command line defers it
# (reprolint/_lazy.py), so a run served from the cache never pays its 0.25 s import.
import libcst as cst

from reprolint._gc import cycle_collection_paused
from reprolint.analysis.context import CheckContext
from reprolint.analysis.execution import ExecutionModel
from reprolint.analysis.facts import ModuleFacts, collect_facts
from reprolint.analysis.program import analyse_programs
from reprolint.analysis.project_index import ProgramIndex
from reprolint.checks.base import Finding
from reprolint.checks.registry import all_rules
from reprolint.config import Settings
from reprolint.discovery import discover, read_regular
from reprolint.model import Diagnostic, Severity, Span
from reprolint.precheck import parse_problem

__all__ = [
    "DATA_FILE_BYTES",
    "MAX_FILE_BYTES",
    "CheckResult",
    "FileAnalysis",
    "ProgramCheck",
    "analyse_bytes",
    "analyse_file",
    "analyse_source",
    "check_analyses",
    "check_roots",
    "check_paths",
    "check_source",
    "check_sources",
    "decode_source",
    "diagnose_analyses",
    "fix_paths",
    "fix_source",
    "literal_share",
]

# Files above this size are reported (RPL900) and skipped: generated tables of literals
# cost libcst seconds and hundreds of MB while holding no training code.
MAX_FILE_BYTES = 1_000_000

# Data files: above this size, a file whose text is mostly literal tables (dicts, lists
# and tuples of constants) is skipped with the same RPL900 notice. Such files hold no
# training code, yet libcst needs seconds and hundreds of MB for them (torch's
# sparse/_triton_ops_meta.py: 502 KB, 93% literals, 8 s and 690 MB). Ordinary modules
# of this size are under 5% literals, so they are always analysed.
DATA_FILE_BYTES = 200_000
DATA_FILE_LITERAL_SHARE = 0.5

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

    def __reduce__(self) -> Any:
        # Keep line and column when a worker process sends it back (--jobs).
        return (SourceError, (self.reason, self.line, self.column))


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
    # Code in an older syntax ("Python 2", or "Python 3.6" with `async` as a name),
    # analysed through its line-for-line Python 3 reading (reprolint/python2.py): no
    # `source`, so no fix is planned on it.
    old_syntax: Optional[str] = None
    skipped: Optional[str] = None  # why it was not analysed (a notebook in another language)


@dataclass
class CheckResult:
    diagnostics: list[Diagnostic]
    files_checked: int
    # What discovery could not walk or skipped (a folder without permission, a FIFO).
    problems: list[str] = field(default_factory=list)
    # Notes for the user about the check itself (project imports not found...), not findings.
    notes: list[str] = field(default_factory=list)
    # Files found but not analysed, each with why: "nb.ipynb (a R notebook)".
    skipped: list[str] = field(default_factory=list)
    # Modules left out as tests (``include-tests`` off): the summary says how many.
    tests_left_out: int = 0


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


def _compile_ast(source: str, path: str) -> None:
    """Compile ``source`` to an AST as CPython would, raising what CPython raises
    (``SyntaxError`` and its kin); the user's code gets no SyntaxWarning of ours."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compile(source, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)


def _syntax_error(source: str, path: str, exc: cst.ParserSyntaxError) -> SourceError:
    """Prefer CPython's wording and location, which users know; fall back to libcst's."""
    try:
        _compile_ast(source, path)
    except SyntaxError as py:
        old = _old_syntax(py)
        kind = f"{old} syntax" if old else "syntax error"
        return SourceError(f"{kind}: {py.msg}", line=py.lineno or 1, column=py.offset or 1)
    except (ValueError, RecursionError, MemoryError):
        pass
    return SourceError(f"syntax error: {exc.message}", line=exc.raw_line, column=exc.raw_column + 1)


# CPython's messages for constructs only Python 2 accepts (print/exec statements,
# `except E, e:`, `0777`, backquotes, `<>`, `ur""`), and the statement forms it does not name.
_PY2_MESSAGES = (
    "Missing parentheses in call to 'print'", "Missing parentheses in call to 'exec'",
    "multiple exception types must be parenthesized", "leading zeros in decimal integer literals",
    # Python 2 reads a tab as indentation to the next multiple of 8 columns; 3 rejects a mix
    "inconsistent use of tabs and spaces in indentation",
)
_PY2_LINE = re.compile(r"^\s*(print\s+[^\s(=]|exec\s+[\"']|raise\s+\w+\s*,|except\s+[\w.]+\s*,\s*\w+\s*:)|`|<>|\bur[\"']|\b(0[xX][0-9a-fA-F]+|\d+)[lL]\b")
# `async` and `await` are reserved from Python 3.7; code from before (PyTorch 0.3's
# `x.cuda(async=True)`) used them as names.
_PY36_LINE = re.compile(r"\basync\b(?!\s+(def|with|for)\b)|\.await\b|\bawait\s*(=[^=]|[,).:\]])")


_OLD_SYNTAXES = ("Python 2", "Python 3.6")  # what a reason says before " syntax: ..."


def _old_syntax(error: SyntaxError) -> Optional[str]:
    """The older Python a syntax error shows the code is written for ("Python 2",
    "Python 3.6"), if any: a user then knows why, and what to do."""
    if any(error.msg.startswith(m) for m in _PY2_MESSAGES):
        return "Python 2"
    if error.text and _PY2_LINE.search(error.text):
        return "Python 2"
    if error.text and _PY36_LINE.search(error.text):
        return "Python 3.6"
    return None


# libcst's trees nest as deep as the code (a long implicit string concatenation is one
# level per piece, e.g. the stdlib's pydoc_data/topics.py), and its code generation and
# our walk recurse over them. Python 3.11+ does not use the C stack for Python-to-Python
# calls, so a higher limit is safe; deeper code still ends as a clear RPL900.
_ANALYSIS_RECURSION_LIMIT = 20_000


@contextlib.contextmanager
def _deep_recursion() -> Iterator[None]:
    old = sys.getrecursionlimit()
    if sys.version_info >= (3, 11) and old < _ANALYSIS_RECURSION_LIMIT:
        sys.setrecursionlimit(_ANALYSIS_RECURSION_LIMIT)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


@contextlib.contextmanager
def _unvalidated_nodes() -> Iterator[None]:
    """Skip libcst's per-node validation while its parser builds a tree: the parser
    only builds valid nodes (libcst's own note on ``CSTNode.__post_init__`` says
    validation at parse time is a cost it would rather avoid), and it is 15-20% of a
    parse. Only where ``__post_init__`` does nothing but validate (the libcst this was
    measured on); nodes built anywhere else, fixes included, are validated."""
    # through the package (the stand-in of reprolint/_lazy.py loads the real libcst on
    # this first attribute): importing libcst._nodes.base first is a circular import
    CSTNode = cst.CSTNode
    validate = CSTNode.__dict__.get("__post_init__")
    if validate is None or getattr(validate, "__code__", None) is None or validate.__code__.co_names != ("_validate",):
        yield
        return
    CSTNode.__post_init__ = _no_validation  # type: ignore[method-assign]
    try:
        yield
    finally:
        CSTNode.__post_init__ = validate  # type: ignore[method-assign]


def _no_validation(self: Any) -> None:
    return None


def _old_module(source: str, error: SourceError) -> Optional[cst.Module]:
    """The module a file in an older syntax means, parsed from its Python 3 reading,
    when ``error`` says it is in one and the reading parses."""
    if not error.reason.startswith(tuple(f"{old} syntax" for old in _OLD_SYNTAXES)):
        return None
    from reprolint.python2 import as_python3

    translated = as_python3(source)
    if translated is None:
        return None
    try:
        return cst.parse_module(translated)
    except cst.ParserSyntaxError:
        return None


_PY2_TABS = "Python 2 syntax: inconsistent use of tabs and spaces"


def _indentation_error(source: str, path: str) -> bool:
    """Whether the text, its leading tabs expanded to Python 2's stops (every 8
    columns), still has an indentation error: Python 2 would refuse it too."""
    from reprolint.python2 import expanded_indentation

    try:
        _compile_ast(expanded_indentation(source), path)
    except IndentationError:
        return True
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return False


# What ``FileAnalysis.old_syntax`` says of a file CPython reads whose indentation
# libcst's tokenizer does not (see :func:`_tab_module`).
TAB_INDENTATION = "tab indentation"


def _tab_module(source: str, path: str) -> Optional[cst.Module]:
    """The module of a file that CPython compiles but libcst does not tokenize because
    its indentation mixes tabs and spaces (a tab-indented line under a space-indented
    one, consistent for CPython, which puts a tab's stop at the next multiple of 8):
    parsed from the text with each line's leading tabs expanded to those stops. None
    for any other file."""
    if "\t" not in source:
        return None
    try:
        _compile_ast(source, path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    from reprolint.python2 import expanded_indentation

    try:
        return cst.parse_module(expanded_indentation(source))
    except (cst.ParserSyntaxError, RecursionError, MemoryError):
        return None


def analyse_source(source: str, path: str) -> FileAnalysis:
    """Parse one module and collect its facts; a parse failure becomes ``error``."""
    result = FileAnalysis(path, suppressions=_suppressions(source), source=source)
    refused = parse_problem(source)  # what would crash libcst's parser or take it minutes
    if refused is not None:
        result.error = SourceError(*refused)
        return result
    with _deep_recursion():
        try:
            with _unvalidated_nodes():
                module = cst.parse_module(source)
        except cst.ParserSyntaxError as exc:
            result.error = _syntax_error(source, path, exc)
            old = result.error.reason.partition(" syntax")[0]
            module = _old_module(source, result.error)
            if module is None:
                module = _tab_module(source, path)
                old = TAB_INDENTATION
            if module is None:
                if result.error.reason.startswith(_PY2_TABS) and _indentation_error(source, path):
                    # not Python 2 either: its 8-column tab stops leave the indentation wrong
                    error = result.error
                    reason = error.reason.removeprefix("Python 2 syntax: ")
                    result.error = SourceError(f"syntax error: {reason}, with Python 2's tab stops too", error.line, error.column)
                return result
            source, result.error, result.source, result.old_syntax = module.code, None, None, old
        except (RecursionError, MemoryError) as exc:
            result.error = SourceError(f"too deeply nested to parse ({type(exc).__name__})")
            return result
        if result.old_syntax is None and path.endswith(".py"):
            from reprolint.marimo import MARIMO, cell_reading

            reading = cell_reading(module, source)
            if reading is not None:
                # a marimo notebook: its cells checked as top-level code, in the order of
                # the file (no fixes: they would be planned on the reading)
                module = reading
                source, result.source, result.old_syntax = reading.code, None, MARIMO
        try:
            result.facts = collect_facts(module, path, source=source)
        except RecursionError:
            result.error = SourceError("too deeply nested to analyse (RecursionError)")
    return result


def analyse_file(path: str) -> FileAnalysis:
    """Read, decode and analyse one file, never raising for bad input.

    Any unexpected exception (a bug in reprolint, not in the file) is caught too and
    reported for this file as RPL900 "internal error", so one file never stops a run.
    """
    try:
        data = read_regular(path)
    except OSError as exc:
        return FileAnalysis(path, error=SourceError(f"cannot read: {exc.strerror or exc}"))
    return analyse_bytes(path, data)


def analyse_bytes(path: str, data: bytes) -> FileAnalysis:
    """:func:`analyse_file` on bytes already read (the cache hashes the same bytes)."""
    try:
        return _analyse_bytes(path, data)
    except Exception as exc:  # noqa: BLE001 - any bug becomes a finding on this file
        return FileAnalysis(path, error=SourceError(f"internal error: {type(exc).__name__}: {exc}"))


def _analyse_bytes(path: str, data: bytes) -> FileAnalysis:
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
    if len(data) > DATA_FILE_BYTES:
        share = literal_share(source)
        if share >= DATA_FILE_LITERAL_SHARE:
            # a data table is not a problem of the code: the summary names it, no finding
            return FileAnalysis(
                path, facts=ModuleFacts(path),
                skipped=f"a data file: {len(data):,} bytes, {share:.0%} of it literal data tables, "
                f"over the {DATA_FILE_BYTES:,}-byte limit for data files",
            )
    return analyse_source(source, path)


def literal_share(source: str) -> float:
    """The share of the text inside displays of constants (dicts, lists, tuples, sets)."""
    # A cheap first look: most lines of a data table end with a comma or an opening
    # bracket (torch's data files: 94-100% of their text; its big modules: 6-36%).
    lines = source.splitlines(keepends=True)
    tabular = sum(len(line) for line in lines if line.rstrip().endswith((",", "{", "[", "(")))
    if tabular < len(source) * DATA_FILE_LITERAL_SHARE:
        return 0.0
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return 0.0  # libcst reports it
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    inside = 0
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Dict, ast.List, ast.Tuple, ast.Set)) and _constant_display(node):
            start = starts[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
            end = starts[node.end_lineno - 1] + node.end_col_offset  # type: ignore[attr-defined]
            inside += end - start  # byte columns: close enough for a share
            continue
        stack.extend(ast.iter_child_nodes(node))
    return inside / max(1, len(source))


def _constant_display(node: ast.AST) -> bool:
    for child in ast.walk(node):
        if not isinstance(child, (ast.Dict, ast.List, ast.Tuple, ast.Set, ast.Constant,
                                  ast.UnaryOp, ast.USub, ast.UAdd, ast.Load, ast.Name,
                                  ast.Attribute)):
            return False
    return True


def check_roots(paths: Iterable[str]) -> list[str]:
    """The folders a check of ``paths`` resolves imports up to (see ``runcache.scan_roots``)."""
    from reprolint.runcache import scan_roots

    return scan_roots(paths)


@dataclass
class ProgramCheck:
    """A project's findings before their fixes are attached, and what fixes need.

    ``diagnostics`` are in program coordinates (a notebook's code cells joined) and
    suppressions are applied; :meth:`finish` attaches fixes and moves notebook
    locations to cells, as every ``check`` does. Splitting the two lets a caller that
    shows many findings and fixes few (the language server) plan the edits of one
    file's findings only: a finding's fix does not depend on the other findings.
    """

    ctx: CheckContext
    diagnostics: list[Diagnostic]
    sources: dict[str, str]
    cell_maps: dict[str, Any]

    def finish(
        self,
        diagnostics: Optional[Sequence[Diagnostic]] = None,
        *,
        fix_edits: bool = True,
        jobs: Optional[int] = 1,
    ) -> list[Diagnostic]:
        """``diagnostics`` (default: all of them) with fixes attached, in report order."""
        from reprolint.fixing import attach_fixes

        chosen = self.diagnostics if diagnostics is None else list(diagnostics)
        out = attach_fixes(chosen, self.ctx, self.sources, edits=fix_edits, jobs=jobs)
        if self.cell_maps:
            from reprolint.notebooks import to_cells

            out = [to_cells(d, self.cell_maps) for d in out]
        out.sort(key=lambda d: d.sort_key)
        return out


def check_analyses(analyses: Sequence[FileAnalysis], settings: Settings, roots: Sequence[str]) -> ProgramCheck:
    """Run every enabled rule over analysed files as one project (imports resolve up
    to ``roots``); what ``check_paths`` does after reading and parsing the files."""
    # A program's walk nests once per import level (a chain of 2,000 modules importing
    # the next one is 4,000 frames deep).
    with _deep_recursion():
        return _check_analyses(analyses, settings, roots)


def _check_analyses(analyses: Sequence[FileAnalysis], settings: Settings, roots: Sequence[str]) -> ProgramCheck:
    from reprolint.analysis.test_modules import named_as_test
    from reprolint.checks.parse import ParseError

    facts = {a.path: a.facts for a in analyses if a.facts is not None}
    roots = list(roots)
    index = ProgramIndex(facts, roots)
    configured = _configured_entries(facts, settings)
    model = ExecutionModel(index)
    model.configured_entries = frozenset(configured)
    model.entry_calls = _console_script_calls(index, roots)
    configured = sorted(set(configured) | set(model.entry_calls))
    entries = index.entry_points(configured, include_tests=settings.include_tests)
    model.entry_calls, model.dispatched = _dispatched_commands(index, entries, model.entry_calls)
    entries = sorted(set(entries) | set(model.entry_calls))
    configured_torch = settings.torch_version
    settings, versions = _assumed_versions(settings, roots)
    programs = analyse_programs(index, entries, model)
    ctx = CheckContext(
        facts=facts, index=index, programs=programs, settings=settings, model=model,
        suppressions={a.path: a.suppressions for a in analyses},
    )
    ctx.memo["assumed_versions"] = versions
    ctx.memo["configured_torch"] = configured_torch
    rules = {rule.code: rule for rule in all_rules()}
    findings: list[Finding] = []
    for analysis in analyses:
        if analysis.error is not None:
            if not settings.include_tests and named_as_test(analysis.path, roots):
                continue  # a test module's findings are reported only with include-tests
            err = analysis.error
            span = Span(err.line, err.column, err.line, err.column)
            findings.append(ParseError().report(analysis.path, span, path=analysis.path, reason=err.reason))
    for code, rule in rules.items():
        if not settings.is_enabled(code):
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
                data=finding.data,
                entry_points=finding.entry_points,
                related=finding.related,
            )
        )
    return ProgramCheck(
        ctx,
        out,
        {a.path: a.source for a in analyses if a.source is not None},
        {a.path: a.cells for a in analyses if a.cells is not None},
    )


def diagnose_analyses(
    analyses: list[FileAnalysis],
    settings: Settings,
    roots: list[str],
    fix_edits: bool = True,
    jobs: Optional[int] = 1,
) -> list[Diagnostic]:
    """The diagnostics of ``analyses``, checked as one project.

    ``fix_edits=False``: fixes say only that they exist and their level (no edits).
    ``jobs``: processes for computing fix edits (None: every core)."""
    with _deep_recursion():
        return check_analyses(analyses, settings, roots).finish(fix_edits=fix_edits, jobs=jobs)


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
    *,
    jobs: Optional[int] = None,
    cache: bool = False,
    prefilter: Optional[bool] = None,
    fix_edits: bool = True,
) -> CheckResult:
    """Check files and folders; the paths in diagnostics are as given (relative stays relative).

    ``progress(done, total)``, when given, is called after each file is read and parsed.
    ``jobs``: worker processes for the per-file pass and for computing fix edits (None:
    every core; small runs stay in this process); the result never depends on it.
    ``cache``: reuse and store results in the settings' ``cache-dir`` (off by default
    here; the CLI turns it on).
    ``prefilter``: ignored (0.1's pre-filter skipped no file on real code and was
    removed; the argument stays for callers). ``fix_edits``: compute
    each fix's edits (False: only whether a fix exists and its level, much cheaper; what
    the text formats need).
    """
    settings = settings or Settings()
    paths = list(paths)
    problems: list[str] = []
    files = list(discover(paths, settings, problems.append))
    run = None
    if cache:
        # Nothing changed since a run with the same inputs: its diagnostics, as they were.
        from reprolint.runcache import lookup

        run = lookup(paths, settings, files)
        if run.hit is not None and not (fix_edits and _without_fix_edits(run.hit)):
            if progress is not None:
                progress(len(files), len(files))
            return CheckResult(run.hit, len(files), problems, tests_left_out=run.hit_tests)
    from reprolint.pipeline import analyse_all

    analysed_keys: dict[str, str] = {}
    with cycle_collection_paused():
        analyses = analyse_all(
            files, settings, progress=progress, jobs=jobs, cache=cache, keys=analysed_keys,
        )
        diagnostics = diagnose_analyses(analyses, settings, check_roots(paths), fix_edits, jobs)
    notes = _import_notes(analyses, check_roots(paths)) + _old_syntax_notes(analyses)
    skipped = skipped_files(analyses)
    tests = count_tests_left_out(analyses, settings, check_roots(paths))
    if run is not None and not skipped:
        # Under the keys of the bytes analysed, not of the lookup's earlier read. (A run
        # that skipped files is not stored whole: a warm run must name them again.)
        run.remember(diagnostics, analysed_keys, tests)
    return CheckResult(diagnostics, len(files), problems, notes=notes, skipped=skipped, tests_left_out=tests)


def _console_script_calls(index: ProgramIndex, roots: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Entry module -> the functions the project's declared commands call in it
    (``[project.scripts]``, ``console_scripts``): each such module is an entry point."""
    from reprolint.analysis.declared import console_scripts

    calls: dict[str, list[str]] = {}
    for script in console_scripts(roots, list(index.facts)):
        # resolved as `import module` from the declaring folder (and `src/` layouts)
        for folder in (script.folder, script.folder + "/src"):
            importer = _relative_to_scan(index, folder + "/setup.py")
            found = index.resolve_module(importer, script.module) if importer else None
            if found is not None:
                calls.setdefault(found, []).append(script.function)
                break
    return {path: tuple(dict.fromkeys(fns)) for path, fns in calls.items()}


def _dispatched_commands(
    index: ProgramIndex, entries: Iterable[str], calls: Mapping[str, tuple[str, ...]]
) -> tuple[dict[str, tuple[str, ...]], dict[str, frozenset[tuple[str, str]]]]:
    """``calls`` (entry module -> the functions run after importing it) with the commands
    that the entry points dispatch on the command line (``jsonargparse.CLI({...})``,
    ``fire.Fire(fn)``, ``@cli.command()``): each command's function is run by the module
    that defines it, as a program of its own (a package's ``pretrain`` and ``finetune``
    commands, whatever else its ``__main__`` offers). Second: entry -> the commands it
    dispatches to other modules, which its own run leaves to those programs. Such a
    program starts at the command's module: what the dispatching module does before it
    dispatches (at its top level) is not part of it."""
    out = {path: list(fns) for path, fns in calls.items()}
    elsewhere: dict[str, set[tuple[str, str]]] = {}
    for entry in entries:
        for target in index.facts[entry].commands:
            found = index.resolve_call(entry, target)
            if found is None:
                continue
            path, qualname = found
            if qualname in index.facts[path].functions and "." not in qualname:  # a function, not a class
                functions = out.setdefault(path, [])
                if qualname not in functions:
                    functions.append(qualname)
                if path != entry:
                    elsewhere.setdefault(entry, set()).add(found)
    return {path: tuple(fns) for path, fns in out.items()}, {e: frozenset(c) for e, c in elsewhere.items()}


def _relative_to_scan(index: ProgramIndex, absolute: str) -> Optional[str]:
    """``absolute`` spelled as the scan spells its paths (relative stays relative)."""
    folder = str(Path(absolute).parent.resolve())
    for path in index.facts:
        resolved = str(Path(path).resolve())
        if not resolved.startswith(folder + "/"):
            continue
        relative = resolved[len(folder) + 1:]
        if path.endswith(relative):
            prefix = path[: len(path) - len(relative)]
            return str(PurePosixPath(prefix or ".") / Path(absolute).name)
    return None


def _assumed_versions(settings: Settings, roots: Iterable[str]) -> tuple[Settings, dict[str, Any]]:
    """The library versions version-aware rules assume (``torch``): the setting, else
    what the project declares (requirements, setup, pyproject, conda, Pipfile, lock
    files), else the installed one, else the newest catalogued. A declared torch
    becomes the run's ``torch-version``."""
    from reprolint.analysis.declared import assume, declarations
    from reprolint.analysis.determinism import default_torch_source, torch_version

    found = declarations(roots)
    torch = assume("torch", settings.torch_version, found, torch_version(Settings()), default_torch_source())
    if torch.declared:
        settings = settings.replace(torch_version=torch.version)
    return settings, {"torch": torch}


def skipped_files(analyses: Iterable[FileAnalysis]) -> list[str]:
    """The files found but not analysed, each as the summary names it: "path (why)"."""
    return [f"{a.path} ({a.skipped})" for a in analyses if a.skipped]


def count_tests_left_out(analyses: list[FileAnalysis], settings: Settings, roots: Iterable[str] = ()) -> int:
    """How many checked modules were left out as tests (0 with ``include-tests``)."""
    if settings.include_tests:
        return 0
    from reprolint.analysis.program import tests_left_out

    facts = {a.path: a.facts for a in analyses if a.facts is not None}
    return tests_left_out(facts, _configured_entries(facts, settings), [str(PurePosixPath(r)) for r in roots])


def _import_notes(analyses: list[FileAnalysis], roots: list[str]) -> list[str]:
    """Project imports no checked file provides, whose package is in a folder above."""
    from reprolint.analysis.imports import missing_project_imports

    facts = {a.path: a.facts for a in analyses if a.facts is not None}
    return [m.note() for m in missing_project_imports(ProgramIndex(facts, roots), roots)]


def _old_syntax_notes(analyses: list[FileAnalysis]) -> list[str]:
    """Which files were read in an older syntax, with their tabs expanded, or as marimo
    notebooks (their findings have no fix)."""
    from reprolint.marimo import MARIMO

    notes = []
    tabbed = sorted(a.path for a in analyses if a.old_syntax == TAB_INDENTATION)
    if tabbed:
        files, shown = _listed(tabbed)
        notes.append(
            f"{files} indented with tabs and spaces that libcst cannot read checked with each tab "
            f"expanded to the next multiple of 8 columns, as CPython reads it (columns on those "
            f"lines count the expanded tabs), with no fixes: {shown}"
        )
    notebooks = sorted(a.path for a in analyses if a.old_syntax == MARIMO)
    if notebooks:
        files, shown = _listed(notebooks, "marimo notebook")
        notes.append(f"{files} checked with their cells run at the top level in the order of the file, with no fixes: {shown}")
    for kind in _OLD_SYNTAXES:
        paths = sorted(a.path for a in analyses if a.old_syntax == kind)
        if paths:
            files, shown = _listed(paths)
            notes.append(f"{files} in {kind} syntax checked as {kind}, with no fixes: {shown}")
    return notes


def _listed(paths: list[str], noun: str = "file") -> tuple[str, str]:
    """("3 files", "a.py, b.py, c.py and 1 more"): how many, and the first three."""
    count = f"1 {noun}" if len(paths) == 1 else f"{len(paths)} {noun}s"
    return count, ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")


def _without_fix_edits(diagnostics: list[Diagnostic]) -> bool:
    """Whether a run's fixes were left without edits (``fix_edits=False``)."""
    from reprolint.model import Applicability, Fix

    return any(
        type(d.fix) is Fix and d.fix.applicability is not Applicability.DISPLAY_ONLY
        for d in diagnostics
    )


def check_sources(
    sources: Mapping[str, str],
    settings: Optional[Settings] = None,
    root: str = ".",
    fix_edits: bool = True,
) -> list[Diagnostic]:
    """Check in-memory files (path -> source) as one project rooted at ``root``."""
    settings = settings or Settings()
    analyses = [analyse_source(source, path) for path, source in sources.items()]
    return diagnose_analyses(analyses, settings, [root], fix_edits)


def check_source(
    source: Union[str, bytes],
    path: str = "<stdin>",
    settings: Optional[Settings] = None,
    fix_edits: bool = True,
) -> list[Diagnostic]:
    """Check one module's source as a program of its own.

    Bytes (a file's content, e.g. ``--stdin-filename``) get the same policy as a file
    on disk: decoding, the size and data-file limits, notebooks by their suffix.
    """
    return check_source_result(source, path, settings, fix_edits).diagnostics


def check_source_result(
    source: Union[str, bytes],
    path: str = "<stdin>",
    settings: Optional[Settings] = None,
    fix_edits: bool = True,
) -> CheckResult:
    """:func:`check_source` with the whole result: the file it skipped (a data file, a
    notebook in another language) is named in ``skipped``."""
    root = str(PurePosixPath(path).parent)
    if path.endswith(".ipynb"):
        from reprolint.notebooks import analyse_notebook

        data = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
        analysis, root = analyse_notebook(path, data), "."
    elif isinstance(source, bytes):
        analysis = analyse_bytes(path, source)
    else:
        analysis = analyse_source(source, path)
    diagnostics = diagnose_analyses([analysis], settings or Settings(), [root], fix_edits)
    return CheckResult(diagnostics, 1, [], skipped=skipped_files([analysis]))


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
