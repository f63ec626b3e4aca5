"""Command line: argv -> api -> reporter. Thin on purpose."""

from __future__ import annotations

import os
import sys
from typing import Optional, Sequence

# Subcommands that run training code live in reprolint.harness.cli (imported lazily:
# `reprolint check` must start fast and never import torch).
HARNESS_COMMANDS = ("verify", "profile", "variance")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The `reprolint` command; returns its exit status."""
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (`reprolint --help | head -1`): nothing more to say, and
        # no traceback when Python flushes stdout on the way out.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return 0


def _main(argv: Optional[Sequence[str]]) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in HARNESS_COMMANDS:
        from reprolint.harness.cli import main as harness_main

        return harness_main(args)
    if args[:1] == ["server"]:
        # The Language Server: pygls is imported only here (the `lsp` extra).
        from reprolint.server import main as server_main

        return server_main(args[1:])
    if args in (["-h"], ["--help"]):
        from reprolint.harness.cli import full_help

        print(full_help())
        return 0
    if args[:1] == ["clean"] and "--runs" in args[1:]:
        # `clean --runs`: the run records of verify/profile/variance too.
        from reprolint.harness.cli import clean_runs

        if clean_runs():
            return 2
        args = [a for a in args if a != "--runs"]
    from reprolint._cli_lint import main as lint_main

    return lint_main(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
