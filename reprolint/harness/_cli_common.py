"""What the harness commands' command lines share (verify, profile, variance)."""

from __future__ import annotations

import argparse
import math
import sys
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Sequence, Tuple, TypeVar, Union

if TYPE_CHECKING:
    from rich.console import Console

T = TypeVar("T")

EXIT_USAGE = 2


def split_command(argv: Sequence[str]) -> Tuple[List[str], Optional[List[str]]]:
    """Everything after the first `--` is the command, never reprolint's options."""
    args = list(argv)
    if "--" in args:
        i = args.index("--")
        return args[:i], args[i + 1:]
    return args, None


MAX_RUNS = 10_000  # runs per group: far above any use, far below what exhausts memory


def option_problem(timeout: Optional[float], runs: Optional[int] = None) -> Optional[str]:
    """What is wrong with `--timeout` (non-finite: `nan` would mean no timeout at all,
    `inf` the same) or `--runs` (beyond MAX_RUNS: planned up front, they would take
    gigabytes before the first run), or None."""
    if timeout is not None and not math.isfinite(timeout):
        return f"--timeout must be a finite number of seconds, got {timeout}"
    if runs is not None and runs > MAX_RUNS:
        return f"--runs must be at most {MAX_RUNS:,}, got {runs:,}"
    return None


def usage_error(command: str, message: str) -> int:
    """`reprolint COMMAND: error: MESSAGE` on stderr, and exit status 2."""
    print(f"reprolint {command}: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def parse_command_line(
    command: str,
    parser: argparse.ArgumentParser,
    argv: Sequence[str],
    prepare: Optional[Callable[[List[str]], List[str]]] = None,
) -> Union[Tuple[argparse.Namespace, List[str]], int]:
    """reprolint's options (before `--`, rewritten by `prepare` first) and the command to
    run (after it); or the exit status when there is nothing to run: 0 after `--help`,
    2 after a usage error or without a command, its message printed."""
    options, program = split_command(argv)
    if prepare is not None:
        options = prepare(options)
    try:
        args = parser.parse_args(options)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    if program is None:
        program = [a for a in args.command if a != "--"]
    if not program:
        parser.print_usage(sys.stderr)
        return usage_error(command, "give the command to run after --")
    return args, program


def plot_unavailable() -> Optional[str]:
    """Why `--plot` cannot draw (matplotlib missing), asked before the runs rather than
    after an hour of training; None when it can."""
    from reprolint.harness import _plot

    try:
        _plot.require()
    except _plot.PlotUnavailable as exc:
        return str(exc)
    return None


def live_line(label: str, seconds: float, steps: int, loss: Optional[float]) -> str:
    """`run 1/2  running 12.3 s  40 steps  loss 0.4123` (a TTY progress line)."""
    text = f"{label}  running {seconds:.1f} s"
    if steps:
        text += f"  {steps:,} step{'s' if steps != 1 else ''}"
    if loss is not None:
        text += f"  loss {loss:.6g}"
    return text


def show_progress(
    err: Console, event: str, label: str, run: Any, live: bool, summary: Callable[[], str],
) -> None:
    """One progress event of a run on stderr: while it runs (`start`, `tick`) a line that
    the next one overwrites, only when `live` (a terminal, one run at a time); when it
    ends, that line wiped and the run's `summary()` printed for good."""
    if event == "start" and live:
        err.print(f"{label}  running…", end="\r", markup=False)
    elif event == "tick" and live:
        line = live_line(label, run.seconds, run.live_steps, run.live_loss)
        err.print(line.ljust(err.width - 1)[: err.width - 1], end="\r", markup=False)
    elif event == "end":
        if live:
            err.print(" " * (err.width - 1), end="\r", markup=False)
        err.print(summary())


def guarded(command: str, body: Callable[[], T]) -> Union[T, int]:
    """`body()`, or exit status 2 with a clear message when the records folder cannot
    be written (a read-only working directory) or the backend cannot be used."""
    from reprolint.harness.backends import BackendUnavailable
    from reprolint.harness.process import RecordsUnavailable

    try:
        return body()
    except (RecordsUnavailable, BackendUnavailable) as exc:
        return usage_error(command, str(exc))
