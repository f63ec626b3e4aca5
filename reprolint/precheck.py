"""A cheap look at source text before libcst parses it: refuse what is known to crash.

libcst's native parser recurses once per nesting level and dies with a segmentation
fault (taking the whole process with it) somewhere past a thousand nested brackets; a
4 KB file is enough. CPython refuses more than 200 nested brackets ("too many nested
parentheses"), so no program that runs is refused here: such a file is a syntax error
whichever parser reads it, and it becomes RPL900 without libcst ever seeing it.

What this cannot see (an 8,000-term ``a + a + ...``, which costs libcst minutes and then
crashes) is caught by running each file's parse in a worker process with a time limit
(:mod:`reprolint.parallel`).
"""

from __future__ import annotations

import re
from typing import Optional

__all__ = ["MAX_NESTING", "nesting_problem"]

# CPython's tokenizer limit (MAXLEVEL in Parser/tokenizer.h).
MAX_NESTING = 200

# Comments and string literals (their brackets do not nest), and brackets. A string
# left open runs to the end of its line (single quotes) or of the file (triple quotes):
# the file is a syntax error then, and the count only needs to be an upper bound.
_TOKEN = re.compile(
    r"""\#[^\r\n]*"""
    r"""|'''[\s\S]*?(?:'''|\Z)|\"\"\"[\s\S]*?(?:\"\"\"|\Z)"""
    r"""|'(?:[^'\\\r\n]|\\[\s\S])*'?|"(?:[^"\\\r\n]|\\[\s\S])*"?"""
    r"""|[(\[{]|[)\]}]"""
)
_OPEN = frozenset("([{")
_CLOSE = frozenset(")]}")


def nesting_problem(source: str) -> Optional[tuple[str, int, int]]:
    """``(reason, line, column)`` when brackets nest deeper than :data:`MAX_NESTING`.

    Linear in the text; a file with fewer opening brackets than the limit is not even
    scanned.
    """
    if source.count("(") + source.count("[") + source.count("{") <= MAX_NESTING:
        return None
    depth = 0
    for match in _TOKEN.finditer(source):
        text = match.group()
        if text in _OPEN:
            depth += 1
            if depth > MAX_NESTING:
                start = match.start()
                line = source.count("\n", 0, start) + 1
                column = start - (source.rfind("\n", 0, start) + 1) + 1
                return (
                    f"too deeply nested to parse: more than {MAX_NESTING} nested brackets "
                    "(Python's own limit)",
                    line,
                    column,
                )
        elif text in _CLOSE:
            depth = max(0, depth - 1)
    return None
