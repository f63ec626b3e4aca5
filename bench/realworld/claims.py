"""The claims a finding's message makes about the checked code, and which of them fail.

A message quotes the code it reports (`` `nn.Linear(...)` ``), names lines
(``train.py:12``), entry points (``entry point: train.py``) and declared versions
(``declared in requirements.txt as `torch==1.7.1` ``). Each is checked against the
source: the quoted names are on the finding's line, a named line is one of the
finding's places, an entry point is one of its programs, a declaration is in the file.
Used by tests/test_message_claims.py (corpus and rule examples) and by run.py (every
finding of the evaluation sets, reported per rule as counts only).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Callable, Optional, Sequence

__all__ = ["Claimed", "failed_claims"]

_SUBJECT = re.compile(r"^`([^`]+)`")
_REFERENCE = re.compile(r"([\w./+-]+\.(?:py|ipynb)):(\d+)")
_DECLARED = re.compile(r"declared in ([\w./-]+) as `([^`]+)`")
_DECLARED_AS = re.compile(r"declared as `([^`]+)` in ([\w./-]+\w)")
_CHAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_NOT_CODE = {"for", "in"}  # `for ... in labels`: the message's own words


@dataclass(frozen=True)
class Claimed:
    """What the checks need of a finding."""

    path: str
    line: int  # first line of the finding (1-based)
    end_line: int
    message: str
    places: tuple[tuple[str, int], ...]  # (path, line) of the finding and its related locations
    entry_points: tuple[str, ...]
    program_level: bool  # anchored at the start of the module: quotes no call there


def quoted_names(quoted: str) -> list[str]:
    """The names of a quoted expression, without what the message elided (`...`); of a
    dotted name, the last part (`Path.rglob` names the API of `w.rglob(...)`)."""
    chains = _CHAIN.findall(quoted.replace("...", " "))
    return [c.rsplit(".", 1)[-1] for c in chains if c not in _NOT_CODE]


def _named_entries(message: str, entries: Sequence[str]) -> list[str]:
    """The entry points a message names after ``entry point: `` (`a.py`, `a.py and b.py`,
    `a.py, b.py and 4 more`), read with the finding's own entry points first, since a
    path may hold commas, parentheses and spaces."""
    named = []
    for match in re.finditer(r"\(entry points?: ", message):
        rest = message[match.end():]
        while rest:
            if re.match(r"\d+ more\b", rest):
                break
            known = sorted((e for e in entries if rest.startswith(e)), key=len, reverse=True)
            name = known[0] if known else re.split(r", | and |;|\)", rest, maxsplit=1)[0]
            named.append(name)
            rest = rest[len(name):]
            separator = re.match(r", | and ", rest)
            if separator is None:
                break
            rest = rest[separator.end():]
    return named


def failed_claims(f: Claimed, lines: Callable[[str], Optional[Sequence[str]]]) -> list[str]:
    """The claims of ``f``'s message that the source (``lines(path)``: a file's lines, or
    None when the file is not there) does not bear out, each in a few words."""
    failed = []
    own = lines(f.path)
    match = _SUBJECT.match(f.message)
    if match and not f.program_level and own is not None:
        here = "\n".join(own[f.line - 1 : f.end_line])
        missing = [w for w in quoted_names(match.group(1)) if w not in here]
        if missing:
            failed.append(f"quoted code not at the finding ({', '.join(missing)})")
    for path, line in _REFERENCE.findall(f.message):
        if (path, int(line)) not in f.places:
            text = lines(path)
            if text is None or not 1 <= int(line) <= len(text):
                failed.append(f"names a line that does not exist ({path}:{line})")
            else:
                failed.append(f"names a line that is none of its places ({path}:{line})")
    for named in _named_entries(f.message, f.entry_points):
        if named not in f.entry_points:
            failed.append(f"names an entry point that is not its program ({named})")
    declared = _DECLARED.findall(f.message) + [(n, s) for s, n in _DECLARED_AS.findall(f.message)]
    for filename, spec in declared:
        # a file of that name in the finding's folder or one above it
        texts = [lines(str(folder / filename) if str(folder) != "." else filename)
                 for folder in PurePosixPath(f.path).parents]
        # as the requirement reads without its spaces (`torch >= 1.7` is quoted `torch>=1.7`)
        bare = re.sub(r"\s+", "", spec)
        if not any(text is not None and bare in re.sub(r"[ \t]+", "", "\n".join(text)) for text in texts):
            failed.append(f"declaration not in {filename} ({spec})")
    return failed
