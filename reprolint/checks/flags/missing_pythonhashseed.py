from __future__ import annotations

from reprolint.checks.base import Rule


class MissingPythonhashseed(Rule):
    """
    ## What it does
    Reports a program whose results depend on str hash order (see RPL401) runs
    without a fixed `PYTHONHASHSEED`.

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

    code = "RPL307"
    message = "a program whose results depend on str hash order"
    framework = "python"
    implemented = False
