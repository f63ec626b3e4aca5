"""What the harness commands' command lines share (verify, profile, variance)."""

from __future__ import annotations

import sys
from typing import Callable, List, Optional, Sequence, Tuple, TypeVar, Union

T = TypeVar("T")

EXIT_USAGE = 2


def split_command(argv: Sequence[str]) -> Tuple[List[str], Optional[List[str]]]:
    """Everything after the first `--` is the command, never reprolint's options."""
    args = list(argv)
    if "--" in args:
        i = args.index("--")
        return args[:i], args[i + 1:]
    return args, None


def records_unavailable(command: str, exc: Exception) -> int:
    """A read-only working directory: a clear message and exit 2, not a traceback."""
    print(f"reprolint {command}: error: {exc}", file=sys.stderr)
    return EXIT_USAGE


def live_line(label: str, seconds: float, steps: int, loss: Optional[float]) -> str:
    """`run 1/2  running 12.3 s  40 steps  loss 0.4123` (a TTY progress line)."""
    text = f"{label}  running {seconds:.1f} s"
    if steps:
        text += f"  {steps:,} step{'s' if steps != 1 else ''}"
    if loss is not None:
        text += f"  loss {loss:.6g}"
    return text


def guarded(command: str, body: Callable[[], T]) -> Union[T, int]:
    """`body()`, or exit status 2 with a clear message when the records folder cannot
    be written (a read-only working directory)."""
    from reprolint.harness.process import RecordsUnavailable

    try:
        return body()
    except RecordsUnavailable as exc:
        return records_unavailable(command, exc)

