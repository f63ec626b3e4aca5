"""Compare what two runs printed, with timing-like values set aside.

A program's output is the weakest evidence verify has (see the README's "What verify
compares"): it is a criterion only when no optimizer step was traced. Even then, the
time a batch took, a throughput or a date differ on every run of a perfectly
reproducible program, so they are masked before the lines are compared:

* a number next to a time unit: `810.43 ms`, `3.2s`, `5.23it/s`, `12 sec/epoch`;
* a number right after a timing word: `ms/batch 810.43`, `time: 3.1`, `elapsed=12`,
  `eta 00:12`, `took 4.2`;
* clock times and dates: `12:01:15`, `00:01<00:02`, `2026-12-01`, `2026-12-01T12:01:15`.

A difference that is only in masked values is reported as "timing differs (ignored)".
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, List, Optional, Tuple

MASK = "<time>"
MAX_SHOWN = 160  # characters of a differing line shown in the report

_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_UNIT = (
    r"(?:ms|msec|us|µs|ns|s|sec|secs|seconds?|mins?|minutes?|h|hrs?|hours?|"
    r"(?:it|its|samples?|tokens?|batch(?:es)?|img|imgs|images?|examples?|steps?|words?|wps|tok)/s(?:ec)?|"
    r"(?:ms|s|sec)/(?:it|iter|step|batch|epoch|sample|token))"
)
_WORD = (
    r"(?:time|times|elapsed|duration|took|eta|wall|walltime|runtime|latency|throughput|"
    r"speed|fps|wps|tok/s|it/s|s/it|"
    r"(?:ms|s|sec|secs|us)(?:/(?:batch|step|it|iter|epoch|sample|token))?|"
    r"(?:it|samples?|tokens?|imgs?|images?|examples?|words?)/s(?:ec)?)"
)
_PATTERNS = [
    # dates and clock times first, so that their digits are not taken one by one
    re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"),
    re.compile(r"(?<![\d.])\d{1,3}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?![\d])"),
    re.compile(rf"(?<![\w.]){_NUMBER}\s?{_UNIT}(?![\w/])", re.IGNORECASE),
    re.compile(rf"(?<![\w/]){_WORD}(?![\w/])(?:\s*[:=]\s*|\s+)\(?{_NUMBER}", re.IGNORECASE),
]


def mask_timing(line: str) -> str:
    """`line` with every timing-like value replaced by `<time>`."""
    for pattern in _PATTERNS:
        line = pattern.sub(lambda m: _keep_word(m.group(0)), line)
    # `{elapsed:6.2f}` pads a value to its width: the padding is timing too.
    return re.sub(rf"\s*{re.escape(MASK)}\s*", f" {MASK} ", line)


def _keep_word(found: str) -> str:
    # For "ms/batch 810.43" keep the word and mask the number only.
    match = re.search(rf"{_NUMBER}$", found)
    if match and re.match(rf"^{_WORD}", found, re.IGNORECASE):
        return found[: match.start()] + MASK
    return MASK


@dataclass
class OutputComparison:
    """The programs' standard output, compared line by line with timing set aside."""

    equal: bool
    first_line: Optional[int] = None
    line_a: str = ""
    line_b: str = ""
    empty: bool = False
    timing_differs: bool = False  # lines differ, but only in timing-like values
    timing_line: Optional[int] = None  # the first such line
    lines: int = 0


def shorten(a: str, b: str, limit: int = MAX_SHOWN) -> "tuple[str, str]":
    """Both lines cut to `limit` characters around where they first differ."""
    if len(a) <= limit and len(b) <= limit:
        return a, b
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    begin = max(0, start - limit // 4)

    def cut(text: str) -> str:
        piece = text[begin: begin + limit]
        head = "…" if begin > 0 else ""
        tail = "…" if begin + limit < len(text) else ""
        size = f" ({len(text):,} characters)" if len(text) > limit else ""
        return head + piece + tail + size

    return cut(a), cut(b)


def compare_lines(la: List[str], lb: List[str]) -> OutputComparison:
    """Line by line; timing-like values masked before lines are called different."""
    result = OutputComparison(True, empty=not la and not lb, lines=max(len(la), len(lb)))
    for i, (x, y) in enumerate(zip(la, lb)):
        if x == y:
            continue
        if mask_timing(x) == mask_timing(y):
            if result.timing_line is None:
                result.timing_differs, result.timing_line = True, i + 1
            continue
        result.equal, result.first_line = False, i + 1
        result.line_a, result.line_b = shorten(x, y)
        return result
    if len(la) != len(lb):
        n = min(len(la), len(lb))
        result.equal, result.first_line = False, n + 1
        result.line_a, result.line_b = shorten(
            la[n] if n < len(la) else "<end>", lb[n] if n < len(lb) else "<end>"
        )
    return result


# A line is read at most this many bytes at a time: a program printing one endless line
# (or hundreds of megabytes of output) costs verify a bounded amount of memory.
_PIECE = 1 << 20


_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")  # what str.splitlines cuts at


def _pieces(path: Path) -> Iterator[Tuple[str, bool]]:
    """The lines of `path` as `str.splitlines` cuts them, streamed in 1 MiB blocks:
    (text, ends) pairs, where a line longer than a block comes in pieces (`ends` False
    but for the last). A missing or unreadable file has no lines."""
    try:
        handle = open(path, "rb")
    except OSError:
        return
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    carry = ""  # the start of a line not yet ended
    open_line = False  # a piece of a long line was given out, the line not yet ended
    with handle:
        while True:
            try:
                block = handle.read(_PIECE)
            except OSError:
                block = b""
            text = carry + decoder.decode(block, final=not block)
            parts = text.splitlines(keepends=True)
            carry = ""
            if block and parts and (parts[-1][-1] not in _BREAKS or parts[-1][-1] == "\r"):
                carry = parts.pop()  # maybe continued (a "\r" may be half of "\r\n")
            if not block and not parts and open_line:
                yield "", True  # the file's end ends the long line
            open_line = open_line and not parts
            for part in parts:
                if part.endswith("\r\n"):
                    yield part[:-2], True
                elif part[-1] in _BREAKS:
                    yield part[:-1], True
                else:
                    yield part, True  # the file's last line, without a line break
            if not block:
                return
            if len(carry) > _PIECE:  # one long line: compared a piece at a time
                keep = "\r" if carry.endswith("\r") else ""  # maybe half of a "\r\n"
                yield carry[: len(carry) - len(keep)], False
                carry, open_line = keep, True


def compare_outputs(a: Path, b: Path) -> OutputComparison:
    """Two runs' `stdout.txt`, streamed (memory bounded whatever their size); a missing
    file reads as empty output."""
    left, right = _pieces(a), _pieces(b)
    result = OutputComparison(True)
    counts = [0, 0]
    line = 1
    while True:
        x, y = next(left, None), next(right, None)
        if x is None and y is None:
            break
        for side, piece in ((0, x), (1, y)):
            if piece is not None and piece[1]:
                counts[side] += 1
        if result.equal and x != y:
            if x is None or y is None:
                result.equal, result.first_line = False, line
                result.line_a, result.line_b = shorten(x[0] if x else "<end>", y[0] if y else "<end>")
            elif x[1] == y[1] and mask_timing(x[0]) == mask_timing(y[0]):
                if result.timing_line is None:
                    result.timing_differs, result.timing_line = True, line
            else:
                result.equal, result.first_line = False, line
                result.line_a, result.line_b = shorten(x[0], y[0])
        if x is not None and x[1]:
            line += 1
    result.lines = max(counts)
    result.empty = result.lines == 0
    return result
