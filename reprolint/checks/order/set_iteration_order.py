from __future__ import annotations

from reprolint.checks.base import Rule


class SetIterationOrder(Rule):
    """
    ## What it does
    Reports order taken from a `set`/`frozenset` of str or bytes
    (`list(set(words))`, `for w in set(...)`, a vocabulary built from a set).

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

    code = "RPL401"
    message = "order taken from a `set`/`frozenset` of str or bytes"
    framework = "python"
    implemented = False
