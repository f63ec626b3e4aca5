"""Python 2 modules (and Python 3.6 ones), read as the Python 3 that means the same to
the analysis.

Training code from before 2020 is often Python 2 (``print x``, ``except E, e:``). Such a
file does not parse as Python 3, yet its seeds, draws and ops are what `check` is for.
:func:`as_python3` rewrites the Python 2 statement forms token by token, keeping every
line where it was (a finding's line in the translation is its line in the file), and
returns None when the result still does not parse:

* ``print x, y`` / ``print >>f, x`` / ``print`` → ``print(x, y)`` / ``print(x, file=f)`` / ``print()``;
* ``exec code in ns`` → ``exec(code, ns)``;
* ``except E, e:`` → ``except E as e:``;
* ``raise E, v`` / ``raise E, v, tb`` → ``raise E(v)``;
* backquotes → ``repr(...)``, ``<>`` → ``!=``, ``0777`` → ``0o777``, ``10L`` → ``10``,
  ``ur"..."`` → ``r"..."``;
* ``async`` and ``await`` used as names, as code from before Python 3.7 did
  (``x.cuda(async=True)`` in PyTorch 0.3 scripts) → ``async_`` / ``await_``.

The translation is read, never written: `fix` leaves such a file as it is.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings
from typing import Optional

__all__ = ["as_python3", "expanded_indentation"]

_OCTAL = re.compile(r"0[0-7]+")
_STATEMENT_ENDS = (tokenize.NEWLINE, tokenize.ENDMARKER)


def as_python3(source: str) -> Optional[str]:
    """``source`` with its Python 2 forms rewritten, line for line; None when it does
    not tokenize or the rewrite does not parse as Python 3. Indentation that mixes tabs
    and spaces is read as Python 2 reads it: a tab moves to the next multiple of 8."""
    original = source
    if "\t" in source:
        source = expanded_indentation(source)
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    edits: list[tuple[tuple[int, int], tuple[int, int], str]] = []  # (start, end, text)
    starts_statement = True
    in_backquotes = False
    for i, tok in enumerate(tokens):
        kind, text = tok.type, tok.string
        if kind == tokenize.NAME and starts_statement and text in ("print", "exec"):
            _statement(tokens, i, edits)
        elif kind == tokenize.NAME and text == "except":
            _except(tokens, i, edits)
        elif kind == tokenize.NAME and text == "raise" and starts_statement:
            _raise(tokens, i, edits)
        elif kind == tokenize.NUMBER and text == "0" and _adjacent(tokens, i, tokenize.NUMBER) \
                and _OCTAL.fullmatch("0" + tokens[i + 1].string):
            edits.append((tok.start, tok.end, "0o"))  # `0777` comes as `0` then `777`
        elif kind == tokenize.NUMBER and _adjacent(tokens, i, tokenize.NAME) and tokens[i + 1].string in ("l", "L"):
            edits.append((tokens[i + 1].start, tokens[i + 1].end, ""))  # `10L`
        elif kind == tokenize.NAME and text.lower() == "ur" and _adjacent(tokens, i, tokenize.STRING):
            edits.append((tok.start, tok.end, "r"))
        elif kind == tokenize.OP and text == "<" and _adjacent(tokens, i, tokenize.OP) and tokens[i + 1].string == ">":
            edits.append((tok.start, tokens[i + 1].end, "!="))
        elif kind == tokenize.NAME and text in ("async", "await") and _a_name(tokens, i):
            edits.append((tok.start, tok.end, text + "_"))
        elif kind == tokenize.ERRORTOKEN and text == "`":  # opens and closes in turn
            edits.append((tok.start, tok.end, ")" if in_backquotes else "repr("))
            in_backquotes = not in_backquotes
        if kind in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT) or (kind == tokenize.OP and text in (":", ";")):
            starts_statement = True
        elif kind not in (tokenize.NL, tokenize.COMMENT):
            starts_statement = False
    if not edits and source == original:
        return None
    translated = _apply(source, edits) if edits else source
    try:
        with warnings.catch_warnings():  # ("is" with a literal...): the user's code, not ours to say
            warnings.simplefilter("ignore")
            compile(translated, "<python2>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError):
        return None
    return translated


def expanded_indentation(source: str) -> str:
    """Each line's leading tabs expanded to Python 2's tab stops (every 8 columns), the
    rest of the line as it is: Python 2 accepts indentation that mixes tabs and spaces,
    which Python 3 rejects (TabError)."""
    out = []
    for line in source.splitlines(keepends=True):
        body = line.lstrip(" \t\f")
        indent = line[: len(line) - len(body)]
        out.append(indent.expandtabs(8) + body if "\t" in indent else line)
    return "".join(out)


# What follows `await` the name (Python 3.7+'s keyword is followed by an expression).
_AFTER_A_NAME = ("=", ",", ")", ".", ":", "]", "}", "+=", "-=")


def _a_name(tokens: list[tokenize.TokenInfo], i: int) -> bool:
    """Whether ``async``/``await`` at ``i`` is a name (reserved only from Python 3.7):
    an attribute or keyword argument, an assignment target, an argument."""
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    if i > 0 and tokens[i - 1].string in (".", "def", "import", "as"):
        return True
    if tokens[i].string == "async":  # the keyword comes before `def`, `with` and `for`
        return after is None or after.string not in ("def", "with", "for")
    return after is None or after.type in _STATEMENT_ENDS \
        or (after.type == tokenize.OP and after.string in _AFTER_A_NAME)


def _adjacent(tokens: list[tokenize.TokenInfo], i: int, kind: int) -> bool:
    """Whether the token after ``i`` is of ``kind`` and starts where ``i`` ends."""
    return i + 1 < len(tokens) and tokens[i + 1].type == kind and tokens[i + 1].start == tokens[i].end


def _statement_end(tokens: list[tokenize.TokenInfo], i: int) -> int:
    """The index of the last token of the statement that starts at ``i`` (before its
    NEWLINE, ``;`` or trailing comment, at bracket depth 0)."""
    depth, last = 0, i
    for j in range(i + 1, len(tokens)):
        tok = tokens[j]
        if tok.type in _STATEMENT_ENDS:
            break
        if tok.type == tokenize.OP:
            if tok.string in "([{":
                depth += 1
            elif tok.string in ")]}":
                depth -= 1
            elif tok.string == ";" and depth == 0:
                break
        if tok.type not in (tokenize.NL, tokenize.COMMENT):
            last = j
    return last


def _statement(tokens: list[tokenize.TokenInfo], i: int, edits: list) -> None:
    """``print ...`` / ``exec ...`` as a call (left alone when already one)."""
    keyword = tokens[i]
    end = _statement_end(tokens, i)
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    if end == i:  # a bare `print`
        edits.append((keyword.end, keyword.end, "()"))
        return
    if nxt is not None and nxt.string == "(" and _closing(tokens, i + 1) == end:
        return  # `print(x)`: a call in both versions
    if nxt is not None and nxt.type == tokenize.OP and nxt.string in ("=", ".", ",", ")"):
        return  # a name, not the statement
    body_end = tokens[end].end
    if keyword.string == "print" and nxt is not None and nxt.string == ">>":
        comma = _depth0(tokens, i + 2, end, ",")
        if comma is None:  # `print >>f` prints a newline to f
            edits.append((nxt.start, tokens[end].end, "(file=" + _text(tokens, i + 2, end) + ")"))
            return
        destination = _text(tokens, i + 2, comma - 1)
        edits.append((keyword.end, keyword.end, "("))
        edits.append((nxt.start, tokens[comma].end, ""))
        edits.append((body_end, body_end, f", file={destination})"))
        return
    if keyword.string == "exec":
        within = _depth0(tokens, i + 1, end, "in")
        if within is not None:
            edits.append((tokens[within].start, tokens[within].end, ","))
    edits.append((keyword.end, keyword.end, "("))
    edits.append((body_end, body_end, ")"))


def _except(tokens: list[tokenize.TokenInfo], i: int, edits: list) -> None:
    """``except E, e:`` → ``except E as e:``."""
    colon = _depth0(tokens, i + 1, len(tokens) - 1, ":")
    if colon is None:
        return
    comma = _depth0(tokens, i + 1, colon, ",")
    if comma is not None and colon == comma + 2 and tokens[comma + 1].type == tokenize.NAME:
        edits.append((tokens[comma].start, tokens[comma].end, " as"))


def _raise(tokens: list[tokenize.TokenInfo], i: int, edits: list) -> None:
    """``raise E, v[, tb]`` → ``raise E(v)``."""
    end = _statement_end(tokens, i)
    comma = _depth0(tokens, i + 1, end, ",")
    if comma is None:
        return
    second = _depth0(tokens, comma + 1, end, ",")
    value_end = tokens[second - 1].end if second is not None else tokens[end].end
    edits.append((tokens[comma].start, tokens[comma + 1].start, "("))
    edits.append((value_end, tokens[end].end if second is not None else value_end, ")"))


def _closing(tokens: list[tokenize.TokenInfo], i: int) -> int:
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j].type == tokenize.OP and tokens[j].string in "([{":
            depth += 1
        elif tokens[j].type == tokenize.OP and tokens[j].string in ")]}":
            depth -= 1
            if depth == 0:
                return j
    return -1


def _depth0(tokens: list[tokenize.TokenInfo], start: int, end: int, text: str) -> Optional[int]:
    """The first token ``text`` at bracket depth 0 in ``tokens[start:end + 1]``."""
    depth = 0
    for j in range(start, min(end + 1, len(tokens))):
        tok = tokens[j]
        if tok.type == tokenize.OP and tok.string in "([{":
            depth += 1
        elif tok.type == tokenize.OP and tok.string in ")]}":
            depth -= 1
        elif depth == 0 and tok.string == text:
            return j
    return None


def _text(tokens: list[tokenize.TokenInfo], start: int, end: int) -> str:
    """The source of ``tokens[start:end + 1]``, on one line (their strings, spaced, when
    they span several)."""
    first, last = tokens[start], tokens[end]
    if first.start[0] == last.end[0]:
        return first.line[first.start[1]:last.end[1]]
    return " ".join(t.string for t in tokens[start:end + 1] if t.type not in (tokenize.NL, tokenize.COMMENT))


def _apply(source: str, edits: list[tuple[tuple[int, int], tuple[int, int], str]]) -> str:
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def at(position: tuple[int, int]) -> int:
        row, col = position
        return offsets[row - 1] + col if row - 1 < len(offsets) else len(source)

    out, cursor = [], 0
    for start, end, text in sorted(edits, key=lambda e: (at(e[0]), at(e[1]))):
        a, b = at(start), at(end)
        if a < cursor:
            continue  # overlapping edits: keep the first
        out.append(source[cursor:a])
        out.append(text)
        cursor = b
    out.append(source[cursor:])
    return "".join(out)
