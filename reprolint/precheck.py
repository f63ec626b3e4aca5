"""A cheap look at source text before libcst parses it: refuse what is known to crash.

libcst's native parser recurses once per nesting level and dies with a segmentation
fault (taking the whole process with it) somewhere past a thousand nested brackets; a
4 KB file is enough. CPython refuses more than 200 nested brackets ("too many nested
parentheses"), so no program that runs is refused here: such a file is a syntax error
whichever parser reads it, and it becomes RPL900 without libcst ever seeing it.

libcst also spends quadratic time on one long flat chain: a ``a + a + ...`` of 2,000
terms costs it 1 s, 3,000 terms 4 s, 6,000 terms 23 s; 2,000 attribute links ``a.b.b...``
1.6 s, 2,000 subscripts ``x[0][0]...`` 10 s (libcst 1.x, one core). A chain of more
than :data:`MAX_CHAIN` operators of one precedence level, or more than
:data:`MAX_TRAILERS` attribute dots, calls and subscripts, at one bracket level of one
expression, is refused the same way. Real code stays below both: over torch and the
standard library with its site-packages (208 MB), nothing is refused; the longest
chain, 2,391 operators, is sympy's generated ``resolvent_lookup.py``.
What slips past both looks (a worker that crashes or hangs anyway) is caught by running
each file's parse in a worker process with a time limit (:mod:`reprolint.parallel`).
"""

from __future__ import annotations

import re
from typing import Optional

__all__ = ["MAX_CHAIN", "MAX_NESTING", "MAX_TRAILERS", "chain_problem", "nesting_problem", "parse_problem"]

# CPython's tokenizer limit (MAXLEVEL in Parser/tokenizer.h).
MAX_NESTING = 200

# Links in one flat chain (see the module docstring for the measurements): operators of
# one precedence level, and attribute dots, calls and subscripts.
MAX_CHAIN = 3000
MAX_TRAILERS = 1000

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
    if _opening_brackets(source) <= MAX_NESTING:
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


# What a chain is made of, and what ends one. Strings and comments first (an operator
# inside them is text); a number may hold a dot (``1.5``) that is no attribute link.
# The look-ahead lists every character a token can start with: it changes no match, and
# lets the search pass over spaces and indentation a third faster.
_CHAIN_TOKEN = re.compile(
    r"""(?=[#\\'"\w(\[{)\]}\r\n,;:=\-*/%@&|^~.<>+])"""
    r"""(?:(?P<skip>\#[^\r\n]*|\\\r?\n"""
    r"""|'''[\s\S]*?(?:'''|\Z)|\"\"\"[\s\S]*?(?:\"\"\"|\Z)"""
    r"""|'(?:[^'\\\r\n]|\\[\s\S])*'?|"(?:[^"\\\r\n]|\\[\s\S])*"?)"""
    r"""|(?P<operand>\d[\w.]*|\w+)"""
    r"""|(?P<open>[(\[{])|(?P<close>[)\]}])"""
    r"""|(?P<end>\r?\n|\r|[,;:]|(?<![=!<>])=(?!=)|->)"""
    r"""|(?P<link>\*\*|//|<<|>>|[-+*/%@&|^~.]))"""
)
_KEYWORDS = frozenset(
    "and or not in is if else for lambda return yield await assert del import from as with "
    "while elif try except finally raise pass break continue global nonlocal class def async".split()
)
# The characters each kind of link is spelt with (every link token holds at least one of
# its kind's): a file with no more of them than the limit cannot hold a long chain.
_LINK_SPELLINGS = (
    ("+-~", MAX_CHAIN), ("*/%@", MAX_CHAIN), ("<>", MAX_CHAIN), ("&", MAX_CHAIN), ("^", MAX_CHAIN),
    ("|", MAX_CHAIN), (".([{", MAX_TRAILERS),
)
# Each operator's precedence level (a chain of its own); the last kind is trailers.
_KIND = {
    "+": 0, "-": 0, "~": 0, "*": 1, "/": 1, "//": 1, "%": 1, "@": 1, "**": 2, "<<": 3, ">>": 3,
    "&": 4, "^": 5, "|": 6, ".": 7,
}
_TRAILER = 7


def chain_problem(source: str) -> Optional[tuple[str, int, int]]:
    """``(reason, line, column)`` when one flat chain is longer than libcst can afford:
    more than :data:`MAX_CHAIN` operators of one precedence level (``+``/``-``, or
    ``*``/``/``/``%``/``@``, ...), or more than :data:`MAX_TRAILERS` attribute dots,
    calls and subscripts.

    A chain is counted at one bracket level of one expression: a comma, an assignment, a
    colon, a keyword or the end of the logical line ends it; operators of different
    precedence levels (``a*b + c*d``) make separate chains, as they do for the parser.
    Counts are an upper bound (a unary minus counts with ``-``), never an under-count.
    Linear in the text; a file with fewer link characters than the limit is not scanned.
    """
    if not _may_chain(source):
        return None
    return _scan(source, nesting=False)


def _may_chain(source: str) -> bool:
    return any(sum(source.count(c) for c in chars) > limit for chars, limit in _LINK_SPELLINGS)


def _scan(source: str, nesting: bool) -> Optional[tuple[str, int, int]]:
    """The chain scan; with ``nesting``, it also answers :func:`nesting_problem` (the
    same brackets, strings and comments), whose answer comes first."""
    limits = [MAX_CHAIN] * _TRAILER + [MAX_TRAILERS]
    kinds = len(limits)
    counts = [[0] * kinds]  # per open bracket level: links of each kind
    after_operand = False
    keywords = _KEYWORDS
    # the kinds of token by how often they come (names, then line ends and commas)
    for match in _CHAIN_TOKEN.finditer(source):
        kind = match.lastgroup
        if kind == "operand":
            after_operand = match.group() not in keywords
            if not after_operand:
                counts[-1] = [0] * kinds
            continue
        if kind == "end":
            if len(counts) > 1 and match.group() in ("\n", "\r\n", "\r"):
                continue  # a line break inside brackets continues the logical line
            counts[-1] = [0] * kinds
            after_operand = False
            continue
        if kind == "skip":
            if match.group()[0] in "'\"":
                after_operand = True
            continue
        if kind == "open":
            if after_operand:  # a call or a subscript: one more link of this chain
                level = counts[-1]
                level[_TRAILER] += 1
                if level[_TRAILER] > MAX_TRAILERS:
                    return _problem(source, match.start(), _TRAILER, nesting)
            counts.append([0] * kinds)
            after_operand = False
            if nesting and len(counts) > MAX_NESTING + 1:
                deep = nesting_problem(source)
                if deep is not None:
                    return deep
                nesting = False
        elif kind == "close":
            if len(counts) > 1:
                counts.pop()
            after_operand = True
        else:  # an operator or an attribute dot
            link = _KIND[match.group()]
            level = counts[-1]
            level[link] += 1
            after_operand = False
            if level[link] > limits[link]:
                return _problem(source, match.start(), link, nesting)
    return None


def _problem(source: str, start: int, link: int, nesting: bool) -> tuple[str, int, int]:
    """A chain too long; too deep a nesting anywhere in the file is reported instead."""
    return (nesting and nesting_problem(source)) or _chain_reason(source, start, link)


def _chain_reason(source: str, start: int, link: int) -> tuple[str, int, int]:
    line = source.count("\n", 0, start) + 1
    column = start - (source.rfind("\n", 0, start) + 1) + 1
    what = (
        f"more than {MAX_TRAILERS} attribute dots, calls or subscripts in a row" if link == _TRAILER
        else f"more than {MAX_CHAIN} operators of one kind in a row"
    )
    return (
        f"too long a chain to parse: {what} (the parser's time grows with the square of it)",
        line,
        column,
    )


def parse_problem(source: str) -> Optional[tuple[str, int, int]]:
    """What libcst must not be given: too deep a nesting, or too long a chain (the
    nesting first). One scan answers both when both need one."""
    if not _may_chain(source):
        return nesting_problem(source)
    return _scan(source, nesting=_opening_brackets(source) > MAX_NESTING)


def _opening_brackets(source: str) -> int:
    return source.count("(") + source.count("[") + source.count("{")
