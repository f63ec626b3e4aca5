"""Command line of the harness commands: `reprolint verify` and `profile` (variance to come)."""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional, Sequence

from rich.console import Console

EXIT_USAGE = 2


def _verify_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reprolint verify",
        description=(
            "Train twice and prove the runs bit-identical, or show where they first diverge. "
            "The program is tested as written (only tracing is injected); --replay records "
            "run 1's randomness and replays it in the later runs."
        ),
        epilog="exit status: 0 reproducible, 1 runs differ, 2 a run failed or usage error",
    )
    parser.add_argument("--runs", type=int, default=2, metavar="N", help="runs to compare (default 2)")
    parser.add_argument(
        "--replay", action="store_true",
        help="record run 1's seeds, entropy draws and PYTHONHASHSEED; replay them in later runs",
    )
    parser.add_argument(
        "--artifact", action="append", default=[], metavar="FILE",
        help="a file each run writes (checkpoint): copied after each run and compared "
        "tensor by tensor; repeatable",
    )
    parser.add_argument("--timeout", type=float, default=None, metavar="S", help="seconds per run")
    parser.add_argument("--output-format", choices=("text", "json"), default="text")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND [ARGS...]")
    return parser


def _split_command(argv: Sequence[str]) -> tuple:
    """Everything after the first `--` is the command, never reprolint's options."""
    args = list(argv)
    if "--" in args:
        i = args.index("--")
        return args[:i], args[i + 1:]
    return args, None


def verify_main(argv: Sequence[str]) -> int:
    parser = _verify_parser()
    options, command = _split_command(argv)
    try:
        args = parser.parse_args(options)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    if command is None:
        command = [a for a in args.command if a != "--"]
    if not command:
        parser.print_usage(sys.stderr)
        print("reprolint verify: error: give the command to run after --", file=sys.stderr)
        return EXIT_USAGE
    if args.runs < 2:
        print("reprolint verify: error: --runs must be at least 2", file=sys.stderr)
        return EXIT_USAGE
    if args.timeout is not None and args.timeout <= 0:
        print("reprolint verify: error: --timeout must be positive", file=sys.stderr)
        return EXIT_USAGE

    from reprolint.harness.report import render_json, render_text, run_line
    from reprolint.harness.verify import verify

    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False, soft_wrap=True)

    def progress(event: str, run, total: int) -> None:  # type: ignore[no-untyped-def]
        if event == "start" and err.is_terminal:
            err.print(f"run {run.index}/{total}  running…", end="\r")
        elif event == "end":
            err.print(run_line(run, total))

    try:
        result = verify(
            command,
            runs=args.runs,
            replay=args.replay,
            artifacts=args.artifact,
            timeout=args.timeout,
            progress=progress,
        )
    except KeyboardInterrupt:  # while comparing: the runs themselves are already stopped
        err.print("[bold yellow]INTERRUPTED[/]: verify was stopped; records are under .reprolint/runs/")
        return EXIT_USAGE
    if args.output_format == "json":
        print(render_json(result))
    else:
        render_text(result, out)
    return result.exit_code


def _profile_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reprolint profile",
        description=(
            "Run the command twice for K optimizer steps under an op recorder and name the "
            "first op whose outputs differ for identical inputs: its module, source line and "
            "the catalog's advice. The program runs as written."
        ),
        epilog="exit status: 0 runs identical, 1 runs diverge, 2 a run failed or usage error",
    )
    parser.add_argument("--steps", type=int, default=2, metavar="K", help="optimizer steps to record (default 2)")
    parser.add_argument("--timeout", type=float, default=None, metavar="S", help="seconds per run")
    parser.add_argument("--output-format", choices=("text", "json"), default="text")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND [ARGS...]")
    return parser


def profile_main(argv: Sequence[str]) -> int:
    parser = _profile_parser()
    options, command = _split_command(argv)
    try:
        args = parser.parse_args(options)
    except SystemExit as exc:
        return int(exc.code or 0)
    if command is None:
        command = [a for a in args.command if a != "--"]
    if not command:
        parser.print_usage(sys.stderr)
        print("reprolint profile: error: give the command to run after --", file=sys.stderr)
        return EXIT_USAGE
    if args.steps < 1:
        print("reprolint profile: error: --steps must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    if args.timeout is not None and args.timeout <= 0:
        print("reprolint profile: error: --timeout must be positive", file=sys.stderr)
        return EXIT_USAGE

    from reprolint.harness._profile_report import render_json, render_text
    from reprolint.harness.profile import profile

    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False, soft_wrap=True)

    def progress(event: str, run) -> None:  # type: ignore[no-untyped-def]
        if event == "start" and err.is_terminal:
            err.print(f"{run.label}  running…", end="\r")

    result = profile(command, steps=args.steps, timeout=args.timeout, progress=progress)
    if args.output_format == "json":
        print(render_json(result))
    else:
        render_text(result, out)
    return result.exit_code


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point for `reprolint verify|profile|variance`; argv[0] is the subcommand."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("reprolint: error: expected verify, profile or variance", file=sys.stderr)
        return EXIT_USAGE
    command, rest = args[0], args[1:]
    if command == "verify":
        return verify_main(rest)
    if command == "variance":
        from reprolint.harness.variance_cli import variance_main

        return variance_main(rest)
    if command == "profile":
        return profile_main(rest)
    print(f"reprolint: error: unknown harness command {command!r}", file=sys.stderr)
    return EXIT_USAGE
