"""The static commands: check, rules, explain, guide, clean. argv -> api -> reporter."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional, Sequence

from reprolint import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _UsageError(Exception):
    pass


def _missing(path: str) -> bool:
    """No such path (one that exists but cannot be reached is checked, and says why)."""
    import os

    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return True
    except OSError:
        return False
    return False


def _printable(text: str) -> str:
    """Text for the terminal: control characters escaped (a file name cannot fake output)."""
    from reprolint.reporters.text import printable

    return printable(text)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> "None":  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"reprolint: error: {message}\n")
        raise SystemExit(EXIT_ERROR)


def _jobs(value: str) -> int:
    try:
        jobs = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of processes, got {value!r}") from None
    if jobs < 1:
        raise argparse.ArgumentTypeError("--jobs must be at least 1")
    return jobs


def _codes(value: str) -> list[str]:
    return [c.strip() for c in value.split(",") if c.strip()]


def _add_selection(p: argparse.ArgumentParser) -> None:
    p.add_argument("--select", type=_codes, help="only these codes or prefixes (comma-separated)")
    p.add_argument("--ignore", type=_codes, help="skip these codes or prefixes")
    p.add_argument("--extend-select", type=_codes, help="add codes to the selection")
    p.add_argument("--config", metavar="FILE", help="use this pyproject.toml or reprolint.toml")
    p.add_argument(
        "--include-tests", action="store_true", default=None,
        help="check test modules as programs too (config: include-tests)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="reprolint",
        description="Find, fix and verify why two identical training runs differ.",
    )
    parser.add_argument("--version", action="version", version=f"reprolint {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    check = sub.add_parser("check", help="audit training code (static; never runs it)")
    check.add_argument("paths", nargs="*", default=["."], metavar="PATH")
    _add_selection(check)
    check.add_argument(
        "--output-format", choices=["text", "concise", "json", "github", "sarif"], default="text",
        help="how findings are printed (default: text)",
    )
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings")
    check.add_argument("--show-source", action="store_true", help="print the offending line")
    check.add_argument("--statistics", action="store_true", help="counts per rule code")
    check.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    check.add_argument(
        "--stdin-filename", metavar="NAME",
        help="read the source from stdin (path `-`) and report it as NAME",
    )
    check.add_argument(
        "--jobs", "-j", type=_jobs, default=None, metavar="N",
        help="worker processes (default: every core; small runs use one)",
    )
    check.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")

    rules = sub.add_parser("rules", help="list every rule")
    rules.add_argument("--format", choices=["text", "json"], default="text")

    explain = sub.add_parser("explain", help="rationale and mitigation of one rule")
    explain.add_argument("code", metavar="CODE")

    sub.add_parser("guide", help="the reproducibility guideline, as Markdown")

    clean = sub.add_parser("clean", help="remove the cache")
    clean.add_argument("--config", metavar="FILE")

    fix = sub.add_parser("fix", help="rewrite code to seed and make it deterministic")
    fix.add_argument("paths", nargs="*", default=["."], metavar="PATH")
    mode = fix.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="write the fixed files")
    mode.add_argument("--diff", action="store_true", help="print the changes as a unified diff")
    fix.add_argument(
        "--unsafe-fixes", action="store_true", default=None,
        help="also apply fixes that change an outcome the program already fixed or can make it fail",
    )
    fix.add_argument("--no-unsafe-fixes", dest="unsafe_fixes", action="store_false")
    fix.add_argument("--fix-style", choices=["hooks", "inline"], help="hooks (default) or inline")
    # Accepted like `check --no-cache`: `fix` analyses every file afresh anyway.
    fix.add_argument("--no-cache", action="store_true", help="accepted for symmetry; fix never uses the cache")
    _add_selection(fix)
    server = sub.add_parser("server", help="Language Server for editors (LSP over stdio; needs reprolint[lsp])", add_help=False)
    server.add_argument("--debounce", metavar="MS", help="milliseconds without typing before a check")
    for name in ("verify", "profile", "variance"):
        sub.add_parser(name, help=f"see `reprolint {name} --help`", add_help=False)
    return parser


class _KnownCodes:
    """Every rule code, loaded on first use: importing the rules costs ~0.1 s, and a
    configuration without codes (or a run served from the cache) never needs them."""

    def __iter__(self):  # type: ignore[no-untyped-def]
        from reprolint.checks.registry import all_rules

        return iter([r.code for r in all_rules()])


def _settings(args: argparse.Namespace, start: Path):  # -> Settings
    from reprolint.config import find_config, load_settings, parse_codes

    known = _KnownCodes()
    path = Path(args.config) if getattr(args, "config", None) else find_config(start)
    if getattr(args, "config", None) and not path.is_file():
        raise _UsageError(f"config file not found: {args.config}")
    settings = load_settings(path, known)
    changes = {}
    for key in ("select", "ignore", "extend_select"):
        value = getattr(args, key, None)
        if value is not None:
            changes[key] = parse_codes(value, f"--{key.replace('_', '-')}", known)
    if getattr(args, "include_tests", None):
        changes["include_tests"] = True
    return settings.replace(**changes) if changes else settings


def _without_fix_edits(diagnostics: list) -> bool:
    """Whether a cached run's fixes were stored without edits (a text-format run)."""
    from reprolint.model import Applicability, Fix

    return any(
        type(d.fix) is Fix and d.fix.applicability is not Applicability.DISPLAY_ONLY
        for d in diagnostics
    )


def _check(args: argparse.Namespace) -> int:
    from reprolint.reporters import Report, render

    # Only JSON and SARIF show a fix's edits; the other formats need only its level,
    # which is much cheaper to know (reprolint.fixing.attach_fixes).
    edits = args.output_format in ("json", "sarif")
    skipped: list[str] = []
    sources: dict[str, str] = {}
    if args.stdin_filename is not None or args.paths == ["-"]:
        from reprolint import api

        start = Path(args.stdin_filename or ".").parent
        settings = _settings(args, start if str(start) else Path("."))
        name = args.stdin_filename or "<stdin>"
        data = sys.stdin.buffer.read()
        checked = api.check_source_result(data, name, settings, fix_edits=edits)
        diagnostics, skipped = checked.diagnostics, checked.skipped
        files, tests = 1, 0
        try:  # --show-source shows what was read from stdin, not the file on disk
            sources = {name: api.decode_source(data)}
        except api.SourceError:
            sources = {name: data.decode("utf-8", errors="replace")}
    else:
        missing = [p for p in args.paths if _missing(p)]
        if missing:
            raise _UsageError(f"no such file or directory: {', '.join(map(_printable, missing))}")
        settings = _settings(args, Path(args.paths[0]))
        run = None
        problems: list[str] = []
        if not args.no_cache:
            # A hit needs neither the analysis code nor the rules: look before importing
            # them (reprolint.runcache).
            from reprolint.discovery import discover
            from reprolint.runcache import lookup

            found = list(discover(args.paths, settings, problems.append))
            run = lookup(list(args.paths), settings, found)
            _warn_cache(run.store)
        if run is not None and run.hit is not None and not (edits and _without_fix_edits(run.hit)):
            diagnostics, files, tests = run.hit, len(run.files), run.hit_tests
            for problem in problems:  # a run served whole from the cache says them too
                sys.stderr.write(f"reprolint: warning: {_printable(problem)}\n")
        else:
            from reprolint import api
            from reprolint.progress import FileProgress

            with FileProgress() as progress:
                result = api.check_paths(
                    args.paths, settings, progress=progress, jobs=args.jobs,
                    cache=not args.no_cache, fix_edits=edits,
                )
            diagnostics, files, tests = result.diagnostics, result.files_checked, result.tests_left_out
            skipped = result.skipped
            for note in result.notes:
                sys.stderr.write(f"reprolint: note: {_printable(note)}\n")
            for problem in result.problems:
                sys.stderr.write(f"reprolint: warning: {_printable(problem)}\n")
    status = EXIT_FINDINGS if diagnostics and not args.exit_zero else EXIT_CLEAN
    report = Report(
        diagnostics, files, show_source=args.show_source, statistics=args.statistics,
        quiet=args.quiet, exit_status=status, skipped=tuple(skipped), sources=sources,
        tests_left_out=tests,
    )
    render(args.output_format, report, sys.stdout)
    if skipped and args.output_format != "text":  # text says it in its summary
        from reprolint.reporters.text import skipped_line

        sys.stderr.write(f"reprolint: note: {skipped_line(skipped)}\n")
    return status


def _fix(args: argparse.Namespace) -> int:
    from reprolint import api
    from reprolint.fixing import WriteError, summary, unified_diff, write_change

    missing = [p for p in args.paths if not Path(p).exists()]
    if missing:
        raise _UsageError(f"no such file or directory: {', '.join(missing)}")
    settings = _settings(args, Path(args.paths[0]))
    if args.fix_style:
        settings = settings.replace(fix_style=args.fix_style)
    unsafe = settings.unsafe_fixes if args.unsafe_fixes is None else args.unsafe_fixes
    try:
        report = api.fix_paths(args.paths, settings, unsafe)
    except KeyboardInterrupt:
        sys.stderr.write("reprolint: interrupted: nothing was written\n")
        return 130
    status = EXIT_CLEAN
    for problem in report.problems:
        sys.stderr.write(f"reprolint: warning: {_printable(problem)}\n")
    if args.diff:
        out = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else None
        for change in report.changes:
            text = unified_diff(change)
            if out is not None:
                sys.stdout.flush()
                out.write(change.source.encode(text) if not change.source.bom else text.encode("utf-8"))
                out.flush()
            else:
                sys.stdout.write(text)
        sys.stderr.write(summary(report, "diff", unsafe))
        return EXIT_FINDINGS if report.changes else EXIT_CLEAN
    if args.write:
        failed = 0
        unwritten = set()
        for i, change in enumerate(report.changes):
            try:
                written = write_change(change)
            except WriteError as exc:
                failed += 1
                unwritten.add(change.path)
                sys.stderr.write(f"reprolint: error: {_printable(change.path)}: {exc}\n")
            except KeyboardInterrupt:
                left = len(report.changes) - i
                sys.stderr.write(f"reprolint: interrupted: {left} file(s) not written, from {_printable(change.path)} on\n")
                return 130
            else:
                if Path(change.path).is_symlink():
                    sys.stderr.write(
                        f"reprolint: note: {_printable(change.path)} is a symbolic link: "
                        f"wrote {_printable(str(written))}\n"
                    )
        report.changes = [c for c in report.changes if c.path not in unwritten]
        report.not_written = failed
        sys.stdout.write(summary(report, "write", unsafe))
        return EXIT_FINDINGS if failed else EXIT_CLEAN
    for change in report.changes:
        counts = ", ".join(
            f"{code} \u00d7{n}" if n > 1 else code for code, n in sorted(change.fixed.items())
        )
        sys.stdout.write(f"{_printable(change.path)}: would fix {counts or 'problems'}\n")
    sys.stdout.write(summary(report, "check", unsafe))
    if report.changes:
        sys.stdout.write("Run with `--diff` to see the changes, `--write` to apply them.\n")
        status = EXIT_FINDINGS
    return status


def _rules(args: argparse.Namespace) -> int:
    from reprolint.checks.registry import all_rules

    rows = [
        {
            "code": r.code,
            "name": r.name(),
            "summary": r.summary(),
            "fixable": r.fixable(),
            "framework": r.framework,
        }
        for r in all_rules()
    ]
    if args.format == "json":
        import json  # only this listing needs it: not imported on a plain `check`

        json.dump(rows, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return EXIT_CLEAN
    from rich.console import Console
    from rich.table import Table

    table = Table(box=None, header_style="bold")
    for column in ("code", "name", "fixable", "framework", "summary"):
        # Codes and names are what users type: never folded (the summary takes the squeeze).
        table.add_column(column, overflow="fold", no_wrap=column in ("code", "name"))
    for row in rows:
        table.add_row(row["code"], row["name"], row["fixable"], row["framework"], row["summary"])
    Console(highlight=False).print(table)
    return EXIT_CLEAN


def _explain(args: argparse.Namespace) -> int:
    from reprolint.checks.registry import get_rule
    from reprolint.docs import rule_markdown

    rule = get_rule(args.code)
    if rule is None:
        raise _UsageError(f"unknown rule code `{args.code}` (see `reprolint rules`)")
    sys.stdout.write(rule_markdown(rule))
    return EXIT_CLEAN


def _guide(args: argparse.Namespace) -> int:
    from reprolint.docs import guide_markdown

    sys.stdout.write(guide_markdown())
    return EXIT_CLEAN


def _warn_cache(store) -> None:  # store: reprolint.cache.FactsCache
    """Say why the cache is not used (a planted or linked folder, no per-user secret)."""
    from reprolint.cache import cache_secret_problem

    if store.problem:
        sys.stderr.write(f"reprolint: warning: {store.problem}\n")
    secret = cache_secret_problem()
    if secret:
        sys.stderr.write(
            f"reprolint: warning: no per-user cache secret ({secret}); nothing cached is reused\n"
        )


def _clean(args: argparse.Namespace) -> int:
    from reprolint.cache import remove_cache

    # Only a folder reprolint made (its marker verifies) is removed; anything else is a
    # CacheDirError, which main() reports with exit status 2.
    print(remove_cache(_settings(args, Path("."))))
    return EXIT_CLEAN


def main(argv: Optional[Sequence[str]] = None) -> int:
    from reprolint._lazy import defer_libcst

    # The command line owns its process: libcst is imported on the first parse only, so
    # a run served from the cache never pays for it. (Never done on `import reprolint.api`:
    # a library caller's sys.modules is not ours to change.)
    defer_libcst()
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list:
        parser.print_help()
        return EXIT_ERROR
    args = parser.parse_args(args_list)
    # Under the github format every line on either stream is an escaped annotation or
    # plain text that cannot start a workflow command (reprolint.reporters.workflow).
    from reprolint.reporters.workflow import guarded_streams

    with guarded_streams(getattr(args, "output_format", None) == "github"):
        return _dispatch(args)


def _dispatch(args: argparse.Namespace) -> int:
    handlers = {
        "check": _check, "rules": _rules, "explain": _explain, "guide": _guide, "clean": _clean,
        "fix": _fix,
    }
    try:
        return handlers[args.command](args)
    except _UsageError as exc:
        sys.stderr.write(f"reprolint: error: {exc}\n")
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_CLEAN
    except KeyboardInterrupt:
        sys.stderr.write("reprolint: interrupted\n")
        return 130
    except Exception as exc:  # noqa: BLE001 - exit status 1 means findings to CI: never a crash's
        from reprolint.config import ConfigError

        if isinstance(exc, ConfigError):  # bad configuration
            sys.stderr.write(f"reprolint: error: {exc}\n")
            return EXIT_ERROR
        return internal_error(exc)


def internal_error(exc: BaseException) -> int:
    """A bug in reprolint: one clear line (where it happened), exit status 2.

    REPROLINT_DEBUG=1 prints the whole traceback.
    """
    import os
    import traceback

    if os.environ.get("REPROLINT_DEBUG"):
        traceback.print_exception(exc, file=sys.stderr)
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno} in {frames[-1].name})" if frames else ""
    sys.stderr.write(
        f"reprolint: internal error: {type(exc).__name__}: {exc}{where}\n"
        "This is a bug in reprolint; REPROLINT_DEBUG=1 shows the traceback.\n"
    )
    return EXIT_ERROR
