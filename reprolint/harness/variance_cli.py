"""Command line of `reprolint variance` (dispatched from reprolint.harness.cli)."""

from __future__ import annotations

import argparse
from functools import partial
from typing import List, Sequence

from rich.console import Console

from reprolint.harness._cli_common import (
    guarded,
    option_problem,
    parse_command_line,
    plot_unavailable,
    show_progress,
    usage_error,
)
from reprolint.harness.backends.cli_options import add_options, options_from


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reprolint variance",
        description=(
            "Run a training command N times and measure how much identical runs differ "
            "(Pham et al., ASE 2020): with a different seed per run (algorithmic variance), "
            "with one fixed seed (implementation-level variance), or both. Seeds are injected "
            "with reprolint.runtime.install(); metrics come from reprolint.runtime.metric()."
        ),
        epilog="exit status: 0 measured, 2 a run failed, Ctrl-C or usage error",
    )
    parser.add_argument("--runs", type=int, default=5, metavar="N",
                        help="runs per group (default 5; --mode both makes 2N)")
    parser.add_argument(
        "--mode", choices=("seeds", "fixed", "both"), default="seeds",
        help="seeds: seed S+k in run k; fixed: seed S in every run; both: the two groups, "
        "compared (default seeds)",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="base seed (default 0)")
    parser.add_argument(
        "--deterministic", action="store_true",
        help="also turn on deterministic kernels (off by default: their absence is part of "
        "the variance being measured)",
    )
    parser.add_argument(
        "--seed-arg", metavar="ARGS",
        help='for a program that seeds itself: arguments appended to the command with the '
        'run\'s seed in place of {seed}, e.g. "--seed={seed}" or "--seed {seed}"',
    )
    parser.add_argument(
        "--seed-env", metavar="NAME",
        help="for a program that seeds itself: set this environment variable to the run's seed",
    )
    parser.add_argument("--metric", metavar="NAME",
                        help="the value for the headline and the strip plot (default: the "
                        "first metric logged, else the final loss)")
    parser.add_argument("--plot", metavar="FILE.png", help="write loss curves and a strip plot here")
    parser.add_argument("--resume", action="store_true",
                        help="continue the newest session of the same command, mode and seed: "
                        "keep its finished runs")
    parser.add_argument("--timeout", type=float, default=None, metavar="S", help="seconds per run")
    parser.add_argument("--output-format", choices=("text", "json"), default="text")
    add_options(parser)
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND [ARGS...]")
    return parser


def _join_seed_arg(options: List[str]) -> List[str]:
    """`--seed-arg "--seed={seed}"`: argparse takes a value that starts with `-` for an
    option, so the pair is joined into `--seed-arg=--seed={seed}` first."""
    joined: List[str] = []
    i = 0
    while i < len(options):
        if options[i] == "--seed-arg" and i + 1 < len(options):
            joined.append(f"--seed-arg={options[i + 1]}")
            i += 2
            continue
        joined.append(options[i])
        i += 1
    return joined


def variance_main(argv: Sequence[str]) -> int:
    parsed = parse_command_line("variance", build_parser(), argv, prepare=_join_seed_arg)
    if isinstance(parsed, int):
        return parsed
    args, command = parsed
    usage = partial(usage_error, "variance")
    if args.runs < 2:
        return usage("--runs must be at least 2")
    if args.seed < 0:
        return usage("--seed must be 0 or more")
    if args.timeout is not None and args.timeout <= 0:
        return usage("--timeout must be positive")
    problem = option_problem(args.timeout, args.runs)
    if problem:
        return usage(problem)
    if args.seed_arg is not None and "{seed}" not in args.seed_arg:
        return usage('--seed-arg must contain {seed}, e.g. "--seed={seed}"')
    if args.seed_env is not None and (not args.seed_env or "=" in args.seed_env):
        return usage("--seed-env takes the name of an environment variable")
    execution = options_from(args)
    if isinstance(execution, str):
        return usage(execution)
    if args.plot and (problem := plot_unavailable()):
        return usage(problem)

    from reprolint.harness.variance import save_report, variance
    from reprolint.harness.variance_report import render_json, render_text, run_line

    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False, soft_wrap=True)

    def progress(event: str, run, position: int, total: int) -> None:  # type: ignore[no-untyped-def]
        label = f"[{position}/{total}] {run.group} run {run.index} (seed {run.seed})"
        show_progress(err, event, label, run, err.is_terminal, lambda: run_line(run, position, total))

    result = guarded("variance", lambda: variance(
        command, runs=args.runs, mode=args.mode, seed=args.seed, deterministic=args.deterministic,
        resume=args.resume, timeout=args.timeout, headline=args.metric, progress=progress,
        seed_arg=args.seed_arg, seed_env=args.seed_env, execution=execution,
    ))
    if isinstance(result, int):
        return result
    if args.plot and any(r.ok for r in result.runs):
        from reprolint.harness import _plot

        try:
            result.plot = _plot.plot(result, args.plot)
        except OSError as exc:
            result.warnings.append(f"cannot write the plot: {exc}")
        save_report(result)
    if args.output_format == "json":
        print(render_json(result))
    else:
        render_text(result, out)
    return result.exit_code
