from __future__ import annotations

from reprolint.checks.base import Rule
from reprolint.model import Severity


class ParseError(Rule):
    """
    ## What it does
    Reports a file that reprolint could not read or parse.

    Causes: a syntax error, an
    undecodable byte sequence for the file's declared encoding, a notebook with broken
    JSON, or a file over the size limit. The other files are still checked.

    Python 2 files (`print "x"`, `exec "..."`, `except E, e:`, `0777`, backquotes,
    `<>`, `raise E, "msg"`) are named as such: the message says "Python 2 syntax"
    before CPython's own wording. A program that imports such a module is still
    checked without it (what the module would do is unknown).

    ## Why is this bad?
    Nothing in an unparsable file can be checked, so its randomness goes unaudited.

    ## Example
    ```python
    def train(:
    ```

    ## Fix safety
    No fix: the file must be repaired by hand.

    ## References
    - https://peps.python.org/pep-0263/
    """

    code = "RPL900"
    message = "Failed to parse {path}: {reason}"
    severity = Severity.ERROR
    framework = "any"
