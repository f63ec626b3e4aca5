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

    Python 2 files (`print "x"`, `exec "..."`, `except E, e:`, `0777`, `10L`,
    backquotes, `<>`, `raise E, "msg"`, `ur"..."`, indentation mixing tabs and spaces,
    which Python 2 reads with a tab stop every 8 columns) are not parse errors: they are
    checked as the Python 3 they mean, read line for line (`reprolint/python2.py`),
    so their findings are on their own lines (on a line whose indentation has tabs, the
    column counts them expanded); `check` notes which files were read so,
    and `fix` never rewrites them. One that this reading cannot parse either is
    reported, and the message says "Python 2 syntax" before CPython's own wording
    (an indentation that Python 2's tab stops leave wrong too is a plain syntax error,
    "with Python 2's tab stops too").
    Files from before Python 3.7 that use `async` or `await` as a name
    (`x.cuda(async=True)`) are read the same way, as "Python 3.6 syntax". A
    program that imports an unparsable module is still checked without it (what the
    module would do is unknown). A test module's parse error (a file in `tests/`,
    `test_*.py`, `*_test.py`, `conftest.py`: the path is all an unparsable file tells)
    is reported only with `include-tests`, like its other findings.

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
