"""Command line of the harness commands: `reprolint verify`, `profile` and `variance`."""

from __future__ import annotations

import argparse
import sys
from functools import partial
from typing import List, Optional, Sequence

from rich.console import Console

from reprolint.harness._cli_common import (
    EXIT_USAGE,
    guarded,
    option_problem,
    parse_command_line,
    plot_unavailable,
    show_progress,
    usage_error,
)
from reprolint.harness.backends.cli_options import add_options, options_from


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
    parser.add_argument(
        "--show-output", action="store_true",
        help="stream the program's own output while it runs (it is kept under the records either way)",
    )
    parser.add_argument(
        "--diagnose", action="store_true",
        help="when the runs differ, run twice more under each control (one RNG library "
        "seeded, every RNG, PYTHONHASHSEED, one thread, num_workers=0, deterministic "
        "algorithms, cuDNN flags) and report which make the runs agree",
    )
    parser.add_argument("--output-format", choices=("text", "json"), default="text")
    parser.add_argument("--plot", metavar="FILE.png",
                        help="draw run 1's and each other run's loss curves, the first divergence marked")
    add_options(parser)
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND [ARGS...]")
    return parser


def verify_main(argv: Sequence[str]) -> int:
    parsed = parse_command_line("verify", _verify_parser(), argv)
    if isinstance(parsed, int):
        return parsed
    args, command = parsed
    usage = partial(usage_error, "verify")
    if args.runs < 2:
        return usage("--runs must be at least 2")
    if args.timeout is not None and args.timeout <= 0:
        return usage("--timeout must be positive")
    problem = option_problem(args.timeout, args.runs)
    if problem:
        return usage(problem)
    execution = options_from(args, args.artifact)
    if isinstance(execution, str):
        return usage(execution)
    if args.show_output and not execution.sequential_here:
        return usage("--show-output needs --jobs 1 and the local backend")
    if args.plot and (problem := plot_unavailable()):
        return usage(problem)

    from reprolint.harness.report import render_json, render_text, run_line
    from reprolint.harness.verify import verify

    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False, soft_wrap=True)

    # Live progress lines overwrite each other: only for one run at a time.
    live = err.is_terminal and not args.show_output and execution.sequential_here

    def progress(event: str, run, total: int) -> None:  # type: ignore[no-untyped-def]
        show_progress(err, event, f"run {run.index}/{total}", run, live, lambda: run_line(run, total))

    try:
        result = guarded("verify", lambda: verify(
            command, runs=args.runs, replay=args.replay, artifacts=args.artifact, timeout=args.timeout,
            progress=progress, show_output=args.show_output, execution=execution,
        ))
    except KeyboardInterrupt:  # while comparing: the runs themselves are already stopped
        err.print("[bold yellow]INTERRUPTED[/]: verify was stopped; records are under .reprolint/runs/")
        return EXIT_USAGE
    if isinstance(result, int):
        return result
    if args.diagnose and result.verdict == "differs":
        from reprolint.harness.diagnose_cli import run_diagnosis

        try:
            run_diagnosis(result, command, args, execution, err, live)
        except KeyboardInterrupt:
            err.print("[bold yellow]INTERRUPTED[/]: the diagnosis was stopped; records are under .reprolint/runs/")
            return EXIT_USAGE
    if args.plot:
        from reprolint.harness.backends.verify_plot import plot_verify

        try:
            result.plot = plot_verify(result, args.plot)
        except OSError as exc:
            result.warnings.append(f"cannot write the plot: {exc}")
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
    parsed = parse_command_line("profile", _profile_parser(), argv)
    if isinstance(parsed, int):
        return parsed
    args, command = parsed
    if args.steps < 1:
        return usage_error("profile", "--steps must be at least 1")
    if args.timeout is not None and args.timeout <= 0:
        return usage_error("profile", "--timeout must be positive")
    problem = option_problem(args.timeout)
    if problem:
        return usage_error("profile", problem)

    from reprolint.harness._profile_report import render_json, render_text
    from reprolint.harness.profile import profile

    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False, soft_wrap=True)

    def progress(event: str, run) -> None:  # type: ignore[no-untyped-def]
        if not err.is_terminal:
            return
        if event == "start":
            err.print(f"{run.label}  running…", end="\r")
        elif event == "tick":
            line = (f"{run.label}  {run.seconds:.0f} s  step {run.live_steps}/{args.steps}  "
                    f"{run.live_ops:,} ops recorded  {run.live_skipped:,} before training skipped")
            err.print(line.ljust(err.width - 1)[: err.width - 1], end="\r", markup=False, highlight=False)
        elif event == "end":
            err.print(" " * (err.width - 1), end="\r", markup=False)

    result = guarded("profile", lambda: profile(command, steps=args.steps, timeout=args.timeout, progress=progress))
    if isinstance(result, int):
        return result
    if args.output_format == "json":
        print(render_json(result))
    else:
        render_text(result, out)
    return result.exit_code


_SUMMARIES = {
    "verify": "train twice (or N times) and prove the runs bit-identical",
    "profile": "find the first op whose outputs differ between two runs",
    "variance": "measure how much identical training runs differ",
}


def _parsers() -> List[argparse.ArgumentParser]:
    from reprolint.harness.variance_cli import build_parser as variance_parser

    return [_verify_parser(), _profile_parser(), variance_parser()]


def full_help() -> str:
    """`reprolint --help`: the command list, then every command's synopsis."""
    from reprolint._cli_lint import build_parser

    parser = build_parser()
    text = parser.format_help()
    for name, summary in _SUMMARIES.items():
        text = text.replace(f"see `reprolint {name} --help`", summary)
    lines = [text.rstrip(), "", "synopsis:"]
    commands = [
        action for action in parser._actions  # argparse has no public way to list subparsers
        if isinstance(action, argparse._SubParsersAction)
    ]
    usages = [p.format_usage() for action in commands for name, p in action.choices.items()
              if name not in _SUMMARIES]
    usages += [p.format_usage().rstrip().removesuffix("...") + "-- COMMAND [ARGS...]" for p in _parsers()]
    for usage in usages:
        usage = " ".join(usage.replace("usage: ", "", 1).split())
        if usage.startswith("reprolint clean "):
            usage += " [--runs]"  # handled before the static command line (reprolint.cli)
        lines.append(f"  {usage}")
    lines.append("")
    lines.append("`reprolint COMMAND --help` describes each option.")
    return "\n".join(lines)


def clean_runs() -> int:
    """`reprolint clean --runs`: remove every session under `.reprolint/runs`.

    Returns 0, or 2 (with a message) when the records folder is behind a link."""
    from reprolint.harness.process import RUNS_DIR, RecordsUnavailable, remove_sessions

    try:
        removed = remove_sessions()
    except RecordsUnavailable as exc:
        return usage_error("clean", str(exc))
    print(f"removed {removed} run record{'s' if removed != 1 else ''} from {RUNS_DIR}")
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point for `reprolint verify|profile|variance`; argv[0] is the subcommand."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("reprolint: error: expected verify, profile or variance", file=sys.stderr)
        return EXIT_USAGE
    command, rest = args[0], args[1:]
    try:
        if command == "verify":
            return verify_main(rest)
        if command == "variance":
            from reprolint.harness.variance_cli import variance_main

            return variance_main(rest)
        if command == "profile":
            return profile_main(rest)
    except Exception as exc:  # noqa: BLE001 - exit status 1 means "runs differ": never a crash's
        from reprolint._cli_lint import internal_error

        return internal_error(exc)
    print(f"reprolint: error: unknown harness command {command!r}", file=sys.stderr)
    return EXIT_USAGE
