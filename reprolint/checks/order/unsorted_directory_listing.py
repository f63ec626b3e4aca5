from __future__ import annotations

from reprolint.checks.base import Rule


class UnsortedDirectoryListing(Rule):
    """
    ## What it does
    Reports `os.listdir`, `os.scandir`, `os.walk`, `glob.glob`/`iglob`,
    `Path.glob/rglob/iterdir` results used in order without `sorted()`.

    Not yet implemented: the code is registered so that tools can key on it.

    ## Why is this bad?
    See the SPEC's rule table; the rationale lands with the implementation.

    ## Example
    Not yet implemented.

    ## Fix safety
    Not yet implemented.

    ## References
    - https://pytorch.org/docs/stable/notes/randomness.html
    """

    code = "RPL402"
    message = "`os.listdir`, `os.scandir`, `os.walk`, `glob.glob`/`iglob`, `Path.glob/rglob/iterdir` results used in order without `sorted()`"
    framework = "python"
    implemented = False
